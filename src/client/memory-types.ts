import type {
  Camelized,
  ExportedMemoryWire,
  ExportEndWire,
  ExportHeaderWire,
  ImportResultWire,
  IngestResponseWire,
  MemoryHistoryWire,
  MemoryRecordWire,
  SearchHitWire,
  WireMemoryStatus,
  WireMemoryType,
  WireVisibility,
} from '../contract/wire-types';
import type { LessonCheck } from './lesson-types';
import type { OwnerScopeInput, ResolvedScope, ScopeInput, WriterScopeInput } from './scope';

export type Visibility = WireVisibility;
export type MemoryType = WireMemoryType;
export type MemoryStatus = WireMemoryStatus;
/** The caller's own object: stored and returned exactly as given, keys never re-cased. */
export type Metadata = Record<string, unknown>;
/** ISO-8601 string, or a Date (sent as ISO-8601). */
export type TimeInput = string | Date;

/** A stored memory. Never carries the embedding. Timestamps are ISO-8601 strings (UTC). */
export type MemoryRecord = Camelized<MemoryRecordWire>;

export type IngestOptions = WriterScopeInput & {
  /** 1..100000 characters. */
  conversation: string;
  sourceSite: string;
  sourceUrl?: string;
  /** Workspace only; default `workspace`. */
  visibility?: Visibility;
  /** At most 32 KB serialized. */
  metadata?: Metadata;
  namespace?: string;
  /** When the stored memories stop being returned (CONTRACT section 12). */
  expiresAt?: TimeInput;
};

export type QuickIngestOptions = IngestOptions & {
  /** Store `conversation` verbatim as one memory (still through the write gate). */
  skipExtraction?: boolean;
};

/** Counts and ids of one ingest call; skipped = duplicates, NOOPs and facts the write gate rejected. */
export type IngestResult = Camelized<IngestResponseWire>;

export type SearchOptions = ScopeInput & {
  /** 1..10000 characters. */
  query: string;
  /** 1..100, default 10. */
  limit?: number;
  /** User scope only. */
  sourceSite?: string;
  /** User scope only: one namespace or a list. */
  namespaceScope?: string | readonly string[];
  /** Valid time, both scopes: what was known and valid at that instant (CONTRACT section 12). */
  asOf?: TimeInput;
  /** "Now" for recency scoring. */
  referenceTime?: TimeInput;
};

export type SearchHit = Camelized<SearchHitWire>;

export interface SearchResult {
  memories: SearchHit[];
  count: number;
  retrievalMode: 'flat';
  scope: ResolvedScope;
  /** The memories as a prompt block; empty string when there are none. */
  injectionText: string;
  /** The ids of `memories`, in order. */
  citations: string[];
  /** Absent while lessons are off. `safe: false` means the search failed closed: no memories. */
  lessonCheck?: LessonCheck;
}

export type ExpandOptions = ScopeInput & {
  /** 1..100 ids; the answer keeps this order and leaves out invisible or unknown ids. */
  memoryIds: readonly string[];
};

export type ListOptions = ScopeInput & {
  /** 1..100, default 20. */
  limit?: number;
  offset?: number;
  /** User scope only. */
  sourceSite?: string;
  /** User scope only. */
  episodeId?: string;
  /** Also memories past their expiry (until they are purged). */
  includeExpired?: boolean;
};

export type ExportOptions = ScopeInput & {
  /** Add each memory's vector (`embedding`). */
  includeVectors?: boolean;
  /** Also memories past their expiry (until they are purged). */
  includeExpired?: boolean;
  /**
   * Send the admin token (the adminToken option) instead of the key: every memory of `userId`
   * (or of its `workspaceId`), any visibility. `agentId` and `agentScope` are then not sent.
   */
  asAdmin?: boolean;
};

/** One line of an export: the header first, then memories (oldest first), then the end line. */
export type ExportLine =
  | ({ kind: 'header' } & Camelized<ExportHeaderWire>)
  | ({ kind: 'memory' } & Camelized<ExportedMemoryWire>)
  | ({ kind: 'end' } & Camelized<ExportEndWire>);

export type ImportOptions = WriterScopeInput & {
  /** For a record whose id exists: `skip` (default), `overwrite` (its owner only), or `new_id`. */
  onConflict?: 'skip' | 'overwrite' | 'new_id';
  /** Check and count everything, write nothing. */
  dryRun?: boolean;
  /** `atrium` (default): an export's NDJSON; `mem0`: mem0's export (a JSON array). */
  format?: 'atrium' | 'mem0';
  /**
   * Send the admin token instead of the key: the records keep their workspace and agent, under
   * `userId` (and only in `workspaceId`, when given). `agentId` and `agentScope` are then not sent.
   */
  asAdmin?: boolean;
};

/** What an import did: counts, and the bad lines by number. */
export type ImportResult = Camelized<ImportResultWire>;

export interface MemoriesPage {
  /** Newest first. */
  memories: MemoryRecord[];
  count: number;
}

export type MemoryIdOptions = ScopeInput & { id: string };

export type GetOptions = MemoryIdOptions & {
  /** Also a memory past its expiry (until it is purged). */
  includeExpired?: boolean;
};

/**
 * PATCH (CONTRACT section 12): any of these, at least one. In a workspace only the owning
 * agent; in user scope the user. New content passes the write gate (AtriumError 422 when blocked).
 */
export type UpdateOptions = WriterScopeInput & {
  id: string;
  /** Workspace memories only. */
  visibility?: Visibility;
  /** 1..100000 characters. */
  content?: string;
  /** Replaces the metadata. */
  metadata?: Metadata;
  /** null clears the expiry. */
  expiresAt?: TimeInput | null;
};

/** A memory's versions, oldest first. */
export type MemoryHistory = Camelized<MemoryHistoryWire>;

export interface SuccessResult {
  success: boolean;
}

export type SetVisibilityOptions = OwnerScopeInput & { id: string; visibility: Visibility };

export type GrantOptions = OwnerScopeInput & { id: string; granteeAgentId: string };

export interface Grant {
  memoryId: string;
  granteeAgentId: string;
  createdAt: string;
  /** False when the grant already existed (the service answers 200 instead of 201). */
  created: boolean;
}

export type ListGrantsOptions = OwnerScopeInput & { id: string };

export interface GrantList {
  grants: { granteeAgentId: string; createdAt: string }[];
  count: number;
}
