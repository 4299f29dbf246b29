import { isUuid } from '../common/scope/parse-memory-scope';
import { NOT_ONE_LINE } from '../contract/wire-types';

/** One memory of an import file, checked (CONTRACT section 13): what the file says, nothing derived. */
export interface ImportRecord {
  id: string;
  content: string;
  memoryType: 'semantic' | 'episodic' | 'procedural';
  importance: number;
  sourceSite: string;
  sourceUrl: string | null;
  namespace: string | null;
  status: 'active' | 'needs_clarification';
  metadata: Record<string, unknown>;
  workspaceId: string | null;
  agentId: string | null;
  visibility: 'workspace' | 'agent_only' | 'restricted' | null;
  createdAt: Date;
  updatedAt: Date;
  expiresAt: Date | null;
  embedding: number[] | null;
  grants: string[];
}

/** The file's first line (an Atrium export's header), when it has one. */
export interface ImportHeader {
  embedding: { provider: string; model: string; dimensions: number } | null;
}

/** A line that is not a valid record: its message names the field. */
export class BadLine extends Error {}

const MEMORY_TYPES = new Set(['semantic', 'episodic', 'procedural']);
const VISIBILITIES = new Set(['workspace', 'agent_only', 'restricted']);
const MAX_CONTENT = 100_000;
const MAX_METADATA_BYTES = 32 * 1024;
const MAX_GRANTS = 1_000;

/** What a line of an Atrium export is: the header, a memory, or the end line. */
export type AtriumLine = { kind: 'header'; header: ImportHeader } | { kind: 'memory'; record: ImportRecord } | { kind: 'end' };

/** Parses one line of an Atrium export (NDJSON); throws BadLine naming the field. */
export function parseAtriumLine(text: string): AtriumLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadLine('not valid JSON');
  }
  if (!isObject(value)) throw new BadLine('a line must be a JSON object');
  if (value.format !== undefined) {
    if (value.format !== 'atrium.export' || value.version !== 1) throw new BadLine('format must be "atrium.export" with version 1');
    const e = value.embedding;
    const embedding =
      isObject(e) && typeof e.provider === 'string' && typeof e.model === 'string' && typeof e.dimensions === 'number'
        ? { provider: e.provider, model: e.model, dimensions: e.dimensions }
        : null;
    return { kind: 'header', header: { embedding } };
  }
  if (value.end === true) return { kind: 'end' };
  return {
    kind: 'memory',
    record: memoryRecord(value, {
      id: value.id,
      content: value.content,
      metadata: value.metadata,
      createdAt: value.created_at,
      updatedAt: value.updated_at,
    }),
  };
}

/** One entry of mem0's export (`{ id, memory, user_id, agent_id, metadata, created_at }`). */
export function parseMem0Entry(value: unknown): ImportRecord {
  if (!isObject(value)) throw new BadLine('an entry must be a JSON object');
  return memoryRecord(
    { source_site: 'mem0' },
    {
      id: value.id,
      content: value.memory,
      contentField: 'memory',
      metadata: value.metadata ?? {},
      createdAt: value.created_at,
      updatedAt: value.updated_at ?? value.created_at,
    },
  );
}

interface CoreFields {
  id: unknown;
  content: unknown;
  contentField?: string;
  metadata: unknown;
  createdAt: unknown;
  updatedAt: unknown;
}

function memoryRecord(v: Record<string, unknown>, core: CoreFields): ImportRecord {
  const contentField = core.contentField ?? 'content';
  if (!isUuid(core.id)) throw new BadLine('id must be a UUID');
  if (typeof core.content !== 'string' || core.content.trim().length === 0 || core.content.length > MAX_CONTENT) {
    throw new BadLine(`${contentField} must be 1 to ${MAX_CONTENT} characters`);
  }
  const metadata = core.metadata ?? {};
  if (!isObject(metadata) || JSON.stringify(metadata).length > MAX_METADATA_BYTES) {
    throw new BadLine('metadata must be a JSON object of at most 32 KB');
  }
  const memoryType = v.memory_type ?? 'semantic';
  if (typeof memoryType !== 'string' || !MEMORY_TYPES.has(memoryType))
    throw new BadLine('memory_type must be semantic, episodic or procedural');
  const importance = v.importance ?? 0.5;
  if (typeof importance !== 'number' || !(importance >= 0 && importance <= 1)) throw new BadLine('importance must be a number from 0 to 1');
  const sourceSite = v.source_site ?? 'import';
  if (typeof sourceSite !== 'string' || sourceSite.length === 0 || sourceSite.length > 512) {
    throw new BadLine('source_site must be 1 to 512 characters');
  }
  if (NOT_ONE_LINE.test(sourceSite)) throw new BadLine(oneLine('source_site'));
  const status = v.status ?? 'active';
  if (status !== 'active' && status !== 'needs_clarification') throw new BadLine('status must be active or needs_clarification');
  const visibility = v.visibility ?? null;
  if (visibility !== null && (typeof visibility !== 'string' || !VISIBILITIES.has(visibility))) {
    throw new BadLine('visibility must be workspace, agent_only or restricted');
  }
  const workspaceId = optionalUuid(v.workspace_id, 'workspace_id');
  const agentId = optionalUuid(v.agent_id, 'agent_id');
  const createdAt = timestamp(core.createdAt ?? new Date().toISOString(), 'created_at');
  return {
    id: (core.id as string).toLowerCase(),
    content: core.content,
    memoryType: memoryType as ImportRecord['memoryType'],
    importance,
    sourceSite,
    sourceUrl: optionalString(v.source_url, 'source_url', 2048),
    namespace: optionalString(v.namespace, 'namespace', 256),
    status,
    metadata,
    workspaceId,
    agentId,
    visibility: visibility as ImportRecord['visibility'],
    createdAt,
    updatedAt: core.updatedAt === undefined || core.updatedAt === null ? createdAt : timestamp(core.updatedAt, 'updated_at'),
    expiresAt: v.expires_at === undefined || v.expires_at === null ? null : timestamp(v.expires_at, 'expires_at'),
    embedding: vector(v.embedding),
    grants: grants(v.grants),
  };
}

function oneLine(field: string): string {
  return `${field} must be one line of printable text (no line breaks or control characters)`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function optionalUuid(value: unknown, field: string): string | null {
  if (value === undefined || value === null) return null;
  if (!isUuid(value)) throw new BadLine(`${field} must be a UUID or null`);
  return value.toLowerCase();
}

function optionalString(value: unknown, field: string, max: number): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > max) throw new BadLine(`${field} must be a string of at most ${max} characters or null`);
  // Rendered into other agents' prompts (injection_text) as ingest's are: one printable line only.
  if (NOT_ONE_LINE.test(value)) throw new BadLine(oneLine(field));
  return value;
}

function timestamp(value: unknown, field: string): Date {
  const date = typeof value === 'string' && value.length <= 64 ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new BadLine(`${field} must be an ISO-8601 timestamp`);
  return date;
}

function vector(value: unknown): number[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length > 4096 || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) {
    throw new BadLine('embedding must be an array of numbers');
  }
  return value as number[];
}

function grants(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.length > MAX_GRANTS) throw new BadLine(`grants must be an array of at most ${MAX_GRANTS} grants`);
  return value.map((g) => {
    if (!isObject(g) || !isUuid(g.grantee_agent_id)) throw new BadLine('grants[].grantee_agent_id must be a UUID');
    return g.grantee_agent_id.toLowerCase();
  });
}
