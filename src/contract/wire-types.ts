/**
 * Response shapes on the wire (snake_case), declared once. The service's types are these
 * (src/memories/memory.mapper.ts, src/ingest/ingest-steps.ts, src/lessons/lesson.types.ts),
 * the OpenAPI classes (each feature's *.responses.ts) implement them with exactly their keys,
 * checked at compile time, and the client's camelCase types are derived from them with
 * Camelized<>. The browser-safe client build (tsconfig.client.json) compiles this folder with
 * src/client; it has no imports.
 */

export type WireVisibility = 'workspace' | 'agent_only' | 'restricted';
export type WireMemoryType = 'semantic' | 'episodic' | 'procedural';
export type WireMemoryStatus = 'active' | 'needs_clarification';
/** The lesson types and severities of CONTRACT section 6 (the lessons table's CHECK constraints list the same). */
export const LESSON_TYPES = ['injection_blocked', 'trust_violation', 'contradiction_pattern', 'false_memory', 'user_reported'] as const;
export type WireLessonType = (typeof LESSON_TYPES)[number];
export const LESSON_SEVERITIES = ['low', 'medium', 'high', 'critical'] as const;
export type WireLessonSeverity = (typeof LESSON_SEVERITIES)[number];

/** CONTRACT section 4: the memory record. Never the embedding. Timestamps are ISO-8601 (UTC). */
export interface MemoryRecordWire {
  id: string;
  user_id: string;
  content: string;
  memory_type: WireMemoryType;
  importance: number;
  source_site: string;
  source_url: string | null;
  episode_id: string | null;
  namespace: string | null;
  status: WireMemoryStatus;
  /** The caller's own object: stored and returned exactly as given, keys never re-cased. */
  metadata: Record<string, unknown>;
  trust_score: number;
  workspace_id: string | null;
  agent_id: string | null;
  /** null on legacy rows and in user scope; treated as `workspace`. */
  visibility: WireVisibility | null;
  created_at: string;
  updated_at: string;
  last_accessed_at: string | null;
  access_count: number;
  /** 1 at creation, +1 per change (CONTRACT section 12). */
  version: number;
  /** When the memory stops being returned; null: never. */
  expires_at: string | null;
  /** Set when the memory was superseded (valid time); null: still valid. */
  valid_until: string | null;
}

/** What one version records (CONTRACT section 12). */
export type WireVersionChange = 'created' | 'edited' | 'visibility_changed' | 'expiry_changed' | 'superseded' | 'deleted';

/** One entry of GET /v1/memories/:id/history, oldest first: the memory as it was after that change. */
export interface MemoryVersionWire {
  version: number;
  change: WireVersionChange;
  content: string;
  metadata: Record<string, unknown>;
  visibility: WireVisibility | null;
  expires_at: string | null;
  changed_at: string;
  /** The agent that made the change (null in user scope). */
  agent_id: string | null;
  /** The API key that made it (null without one). */
  key_id: string | null;
}

/** GET /v1/memories/:id/history. */
export interface MemoryHistoryWire {
  versions: MemoryVersionWire[];
  count: number;
}

/** One search result. */
export interface SearchHitWire {
  id: string;
  content: string;
  similarity: number;
  score: number;
  importance: number;
  source_site: string;
  created_at: string;
  metadata: Record<string, unknown>;
  workspace_id: string | null;
  agent_id: string | null;
  visibility: WireVisibility | null;
}

/** The outcome of one ingest call. */
export interface IngestResponseWire {
  episode_id: string;
  facts_extracted: number;
  memories_stored: number;
  memories_updated: number;
  memories_deleted: number;
  /** Duplicates, NOOPs and facts the write gate rejected. */
  memories_skipped: number;
  stored_memory_ids: string[];
  updated_memory_ids: string[];
}

/** CONTRACT section 13: the first line of an export. */
export interface ExportHeaderWire {
  format: 'atrium.export';
  version: 1;
  exported_at: string;
  /** The caller's scope (as search answers it), or `{ kind: 'subject', user_id, workspace_id }` for the admin. */
  scope: Record<string, unknown>;
  embedding: { provider: string; model: string; dimensions: number };
}

/** A grant on an exported memory (its owner's export only). */
export interface ExportedGrantWire {
  grantee_agent_id: string;
  created_at: string;
}

/** One memory line of an export: the record, the owner's grants, the vector when asked for. */
export interface ExportedMemoryWire extends MemoryRecordWire {
  grants?: ExportedGrantWire[];
  embedding?: number[];
}

/** The last line of a complete export. */
export interface ExportEndWire {
  end: true;
  count: number;
}
/** The `lesson_check` block of a search (CONTRACT section 6). */
export interface LessonCheckWire {
  /** False only when a matched lesson is `critical`; the search then returned no memories. */
  safe: boolean;
  /** One per matched lesson, e.g. `[high] user_reported: ... (similarity: 0.87)`. */
  warnings: string[];
  highest_severity: WireLessonSeverity | 'none';
  matched_count: number;
}

/**
 * Which alternative of the read rule lets a memory through for an agent (CONTRACT section 3),
 * or `not_visible`: `owner` (its own), `workspace` (visibility `workspace` or NULL), `grant`
 * (restricted, with a grant row for the agent).
 */
export type WireVisibilityRule = 'owner' | 'workspace' | 'grant' | 'not_visible';

/** Why a memory is not visible to the agent, first match in this order. */
export type WireHiddenBecause =
  'deleted' | 'superseded' | 'expired' | 'personal_memory' | 'other_workspace' | 'agent_only' | 'restricted_without_grant' | 'other';

/** GET /v1/admin/explain (the admin's inspector): how the read predicate judges one memory for one agent. */
export interface VisibilityExplanationWire {
  memory_id: string;
  user_id: string;
  /** The workspace and agent asked about. */
  workspace_id: string;
  agent_id: string;
  /** The read predicate itself (agent_scope `all`) on this row. */
  visible: boolean;
  rule: WireVisibilityRule;
  /** null when visible. */
  hidden_because: WireHiddenBecause | null;
  /**
   * Each alternative of the read rule evaluated on the row for this agent. Only part of the
   * answer: the row must also be in the workspace and live, which `visible` includes.
   */
  conditions: { owner: boolean; workspace: boolean; grant: boolean };
  /** Where the row is and what it says; never its content. */
  memory: {
    workspace_id: string | null;
    agent_id: string | null;
    visibility: WireVisibility | null;
    deleted: boolean;
    superseded: boolean;
    /** Past its `expires_at` (hidden from reads until purged). */
    expired: boolean;
  };
}

/** `memories_stored` -> `memoriesStored`, at the type level (as snakeToCamel does at run time). */
export type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;

/** Keys whose values are the caller's data, passed through untouched (case-conversion.ts). */
type OpaqueKey = 'metadata' | 'by_type' | 'detail';

/** The client's view of a wire shape: keys camel-cased, deeply, except inside opaque values. */
export type Camelized<T> = T extends readonly (infer Item)[]
  ? Camelized<Item>[]
  : T extends object
    ? { [K in keyof T as K extends string ? CamelCase<K> : K]: K extends OpaqueKey ? T[K] : Camelized<T[K]> }
    : T;

/**
 * Compile-time check that two shapes have exactly the same keys: `true` when they do, a type
 * naming the extra keys otherwise, so `const ok: SameKeys<A, B> = true` fails to compile on drift.
 */
export type SameKeys<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>] extends [never, never]
  ? true
  : { extra: Exclude<keyof A, keyof B>; missing: Exclude<keyof B, keyof A> };

/** POST /v1/memories/import (CONTRACT section 13): what happened to the file's records. */
export interface ImportResultWire {
  imported: number;
  skipped: number;
  blocked: number;
  failed: number;
  /** One per bad line (the first 1,000), by 1-based line number (mem0: entry number). */
  errors: Array<{ line: number; error: string }>;
}

/**
 * Characters a one-line field (`source_site`, `source_url`, `namespace`) may not hold: C0 and C1
 * controls (newline, tab, escape...), DEL, the line and paragraph separators, and the
 * bidirectional controls that reorder what a reader sees. Such a field is rendered into other
 * agents' prompts (injection_text), where a line break could forge an entry of its own. The REST
 * DTOs and the MCP tool schemas both refuse them.
 */
export const NOT_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
