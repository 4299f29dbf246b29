import { randomUUID } from 'node:crypto';

import { Inject, Injectable, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

import type { Actor } from '../common/identity/principal';
import type { MemoryScope, WorkspaceScope } from '../common/scope/memory-scope';
import type { ImportResultWire } from '../contract/wire-types';
import { DATABASE_TARGET, type DatabaseTarget } from '../database/database-target';
import { TenantGraphMaintainer } from '../database/maintenance/tenant-graph-maintainer';
import type { TenantScope } from '../database/maintenance/tenant-graphs';
import { EmbeddingService } from '../embeddings/embedding.service';
import type { AppConfig } from '../env/app-config';
import type { InputAssessment } from '../lessons/classifier/assess-input';
import { WriteGateService } from '../lessons/write-gate.service';
import { MemoriesRepository, type ImportBatch, type NewMemory } from '../memories/memories.repository';
import { BadLine, parseAtriumLine, type ImportHeader, type ImportRecord } from './import-records';

export type OnConflict = 'skip' | 'overwrite' | 'new_id';

/** Into whose memories an import goes: the caller's scope (an API key), or a subject (the admin token). */
export type ImportTarget = { kind: 'scope'; scope: MemoryScope } | { kind: 'subject'; userId: string; workspaceId: string | null };

export interface ImportOptions {
  onConflict: OnConflict;
  dryRun: boolean;
  /** Records per batch (one embedding call and one transaction each). */
  batchSize?: number;
}

/** One input unit: a line of NDJSON (or an entry of a mem0 array), with its 1-based number. */
export interface ImportItem {
  line: number;
  /** The parsed record, or the reason the line is bad. */
  record: ImportRecord | BadLine | null;
  header?: ImportHeader;
}

/** Records per batch: one embedding call and one transaction each. */
export const IMPORT_BATCH_SIZE = 200;
/** At most this many `errors` entries are returned; `failed` counts them all. */
export const MAX_REPORTED_ERRORS = 1_000;

interface Planned {
  line: number;
  record: ImportRecord;
  /** Whose write it is: the write gate judges the record in this scope (its agent's trust). */
  scope: MemoryScope;
  /** Who owns the row (overwrites and grants); null for a workspace row of no agent. */
  owner: MemoryScope | null;
  columns: { workspaceId: string | null; agentId: string | null; visibility: NewMemory['visibility'] };
}

/**
 * POST /v1/memories/import (CONTRACT section 13). Records arrive one line at a time and are
 * handled in batches: each record passes the write gate (as ingest's inputs do: the whole text
 * assessed, then judged; a refusal records its lesson), the batch's vectors are reused when the
 * file was embedded by this service's embedder and made in one embedding call otherwise, the
 * ids are checked for conflicts, and the batch is written in one transaction. A bad line is
 * reported by number and the rest goes on; a dry run does everything but write.
 */
@Injectable()
export class ImportService {
  /** Batches written at once: IMPORT_WRITERS on PostgreSQL; one on the embedded database, whose one backend runs one transaction at a time. */
  private readonly writers: number;

  constructor(
    private readonly repository: MemoriesRepository,
    private readonly embeddings: EmbeddingService,
    private readonly gate: WriteGateService,
    @Inject(DATABASE_TARGET) target: DatabaseTarget,
    @Inject(ConfigService) config: AppConfig,
    @Optional() private readonly graphs?: TenantGraphMaintainer,
  ) {
    this.writers = target.kind === 'embedded' ? 1 : config.get('IMPORT_WRITERS', { infer: true });
  }

  /** Items from NDJSON lines of an Atrium export (the header, if any, first). */
  static async *atriumItems(lines: AsyncIterable<string | null>): AsyncGenerator<ImportItem> {
    let number = 0;
    for await (const text of lines) {
      number++;
      if (text === null) {
        yield { line: number, record: new BadLine('the line is longer than 1 MB') };
        continue;
      }
      if (text.trim().length === 0) continue;
      try {
        const parsed = parseAtriumLine(text);
        if (parsed.kind === 'header') {
          if (number !== 1) throw new BadLine('the header must be the first line');
          yield { line: number, record: null, header: parsed.header };
        } else if (parsed.kind === 'memory') yield { line: number, record: parsed.record };
      } catch (error) {
        if (!(error instanceof BadLine)) throw error;
        yield { line: number, record: error };
      }
    }
  }

  async import(target: ImportTarget, items: AsyncIterable<ImportItem>, actor: Actor, options: ImportOptions): Promise<ImportResultWire> {
    const result: ImportResultWire = { imported: 0, skipped: 0, blocked: 0, failed: 0, errors: [] };
    const seen = new Set<string>();
    let header: ImportHeader | null = null;
    let batch: Planned[] = [];
    // The scopes written into, whose tenant graphs are built once the import is over (TenantGraphMaintainer.importEnded).
    const scopes = new Map<string, TenantScope>();
    // Each batch is prepared (gate, conflicts, vectors) in file order, one after the other, then
    // written in a transaction of its own. Up to `writers` batches are written at once (each
    // one's index upkeep on a core of its own: docs/data.md, "Cost"), and the next batch is read
    // and gated (on a worker) meanwhile.
    const writers = this.writers;
    let preparing: Promise<unknown> = Promise.resolve();
    const written: Array<Promise<void>> = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const planned = batch;
      const fileHeader = header;
      batch = [];
      const assessed = this.assessBatch(planned);
      assessed.catch(() => undefined); // awaited by its preparation
      const prepared = preparing.then(async () => this.prepareBatch(planned, await assessed, fileHeader, seen, result, actor, options));
      preparing = prepared;
      const turn = written[written.length - writers] ?? Promise.resolve();
      const done = Promise.all([prepared, turn]).then(async ([ready]) => {
        if (ready !== null) await this.writeBatch(ready, result, actor, options.onConflict);
      });
      done.catch(() => undefined); // awaited below, in order
      written.push(done);
      // Read on only while at most `writers` batches wait to be written.
      if (written.length > writers) await written[written.length - 1 - writers];
    };
    try {
      for await (const item of items) {
        if (item.header) {
          header = item.header;
          continue;
        }
        if (item.record === null) continue;
        if (item.record instanceof BadLine) {
          fail(result, item.line, item.record.message);
          continue;
        }
        try {
          const planned: Planned = { line: item.line, record: item.record, ...placement(target, item.record) };
          // The graph covers the rows of a user and a workspace column (tenantScopeOf), whoever wrote them.
          const scope: TenantScope = { userId: planned.scope.userId, workspaceId: planned.columns.workspaceId };
          scopes.set(`${scope.userId}\u0000${scope.workspaceId ?? ''}`, scope);
          batch.push(planned);
        } catch (error) {
          if (!(error instanceof BadLine)) throw error;
          fail(result, item.line, error.message);
        }
        if (batch.length >= (options.batchSize ?? IMPORT_BATCH_SIZE)) await flush();
      }
      await flush();
    } finally {
      // Batches under way are finished (or fail) before the request ends, whatever stopped the reading.
      await Promise.allSettled(written);
      if (!options.dryRun) this.graphs?.importEnded(scopes.values());
    }
    for (const done of written) await done;
    firstErrors(result);
    return result;
  }

  /**
   * The gate's assessment of each record's provenance fields and text (a batch's CPU work, on a
   * worker once it is more than a little: WriteGateService.assessMany). Pure: nothing is recorded.
   */
  private async assessBatch(planned: Planned[]): Promise<Assessed[]> {
    const texts: string[] = [];
    for (const item of planned) texts.push(...gatedFields(item.record), item.record.content);
    const assessments = await this.gate.assessMany(texts);
    let next = 0;
    return planned.map((item) => {
      const fields = gatedFields(item.record).map((value) => ({ value, assessment: assessments[next++] }));
      return { fields, content: assessments[next++] };
    });
  }

  /**
   * A batch's gate verdicts (lessons recorded, unless a dry run), conflicts and vectors, in file
   * order: the rows ready to write, or null when there is nothing to write.
   */
  private async prepareBatch(
    planned: Planned[],
    assessed: Assessed[],
    header: ImportHeader | null,
    seen: Set<string>,
    result: ImportResultWire,
    actor: Actor,
    options: ImportOptions,
  ): Promise<Ready | null> {
    // The gate, record by record, as ingest gates an input (lessons recorded unless a dry run).
    const passed: Array<Planned & { trustScore: number }> = [];
    for (const [i, item] of planned.entries()) {
      if (await this.blockedField(item, assessed[i].fields, actor, options.dryRun)) {
        result.blocked++;
        continue;
      }
      const [verdict] = await this.gate.screen(
        item.scope,
        item.record.sourceSite,
        [item.record.content],
        assessed[i].content,
        actor,
        !options.dryRun,
      );
      if (verdict.accepted) passed.push({ ...item, trustScore: verdict.trustScore });
      else result.blocked++;
    }

    // Conflicts: an id met earlier in this file (skipped, or copied with new_id, whether or not
    // its batch is written yet), or an id of one of the user's memories. (An id taken by another
    // user's memory shows up at the INSERT, which leaves it out: see writeBatch.)
    const userId = planned[0].scope.userId;
    const existing = await this.repository.existingIds(
      userId,
      passed.map((p) => p.record.id).filter((id) => !seen.has(id)),
    );
    const toWrite: Array<Planned & { trustScore: number; id: string; overwrite: boolean }> = [];
    for (const item of passed) {
      const id = item.record.id;
      const again = seen.has(id);
      seen.add(id);
      if (!again && !existing.has(id)) toWrite.push({ ...item, id, overwrite: false });
      else if (options.onConflict === 'new_id') toWrite.push({ ...item, id: randomUUID(), overwrite: false });
      else if (options.onConflict === 'skip' || again) result.skipped++;
      else if (item.owner === null) fail(result, item.line, NOT_OVERWRITABLE);
      else toWrite.push({ ...item, id, overwrite: true });
    }
    if (toWrite.length === 0) return null;

    const vectors = await this.vectors(
      toWrite.map((item) => item.record),
      header,
    );
    const embeddedBy = this.embeddings.identity;
    if (options.dryRun) {
      result.imported += toWrite.length;
      return null;
    }
    return toWrite.map((item, i) => ({ item, row: newRow(item, item.id, item.trustScore, vectors[i], embeddedBy) }));
  }

  /** One prepared batch in one transaction (MemoriesRepository.importBatch). */
  private async writeBatch(ready: Ready, result: ImportResultWire, actor: Actor, onConflict: OnConflict): Promise<void> {
    let pending = ready;
    // At most twice: a new row whose id another user's memory holds is, with new_id, written again under a fresh id.
    for (let attempt = 0; pending.length > 0; attempt++) {
      const refused = await this.repository.importBatch(batchOf(pending), actor);
      const retry: Ready = [];
      for (const { item, row } of pending) {
        if (!refused.has(row.id)) result.imported++;
        else if (item.overwrite || onConflict === 'overwrite') fail(result, item.line, NOT_OVERWRITABLE);
        else if (onConflict === 'new_id' && attempt === 0) retry.push({ item, row: { ...row, id: randomUUID() } });
        else result.skipped++;
      }
      pending = retry;
    }
  }

  /**
   * The provenance fields reach other agents' prompts beside the text, so each passes the gate's
   * rules as on ingest (IngestService.screenFields): one the rules block refuses the record and
   * records its lesson (not in a dry run).
   */
  private async blockedField(item: Planned, fields: Assessed['fields'], actor: Actor, dryRun: boolean): Promise<boolean> {
    for (const { value, assessment } of fields) {
      if (!assessment?.findings.some((finding) => finding.source === 'rule' && finding.severity === 'block')) continue;
      await this.gate.screen(item.scope, item.record.sourceSite, [value], assessment, actor, !dryRun);
      return true;
    }
    return false;
  }

  /** The file's vectors when it was embedded by this embedder (same provider, model, dimensions), else one batch call. */
  private async vectors(records: ImportRecord[], header: ImportHeader | null): Promise<number[][]> {
    const mine = this.embeddings.description;
    const same =
      header?.embedding !== null &&
      header?.embedding !== undefined &&
      header.embedding.provider === mine.provider &&
      header.embedding.model === mine.model &&
      header.embedding.dimensions === mine.dimensions;
    const reusable = (r: ImportRecord): boolean => same && r.embedding !== null && r.embedding.length === mine.dimensions;
    const missing = records.filter((r) => !reusable(r));
    const made = missing.length > 0 ? await this.embeddings.embedDocuments(missing.map((r) => r.content)) : [];
    let next = 0;
    return records.map((r) => (reusable(r) ? (r.embedding as number[]) : made[next++]));
  }
}

const NOT_OVERWRITABLE = 'id belongs to a memory the caller may not overwrite';

/** A record's gate assessments: its provenance fields (in the order they are checked), then its text. */
interface Assessed {
  fields: Array<{ value: string; assessment: InputAssessment | null }>;
  content: InputAssessment | null;
}

/** The provenance fields the gate checks before the text (the empty ones are not checked). */
function gatedFields(r: ImportRecord): string[] {
  return [r.sourceSite, r.sourceUrl, r.namespace].filter((value): value is string => value !== null && value !== '');
}

/** A batch's records ready to write, each with its row. */
type Ready = Array<{ item: Planned & { overwrite: boolean }; row: NewMemory }>;

/** The rows, grants and overwrites of records ready to write. */
function batchOf(pending: Ready): ImportBatch {
  const batch: ImportBatch = { rows: [], grants: [], overwrites: [] };
  for (const { item, row } of pending) {
    if (item.overwrite && item.owner !== null) {
      batch.overwrites.push({ scope: item.owner, row });
      continue;
    }
    batch.rows.push(row);
    if (item.owner?.kind === 'workspace' && row.visibility === 'restricted') {
      for (const grantee of new Set(item.record.grants))
        batch.grants.push({ scope: item.owner, memoryId: row.id, granteeAgentId: grantee });
    }
  }
  return batch;
}

function fail(result: ImportResultWire, line: number, error: string): void {
  result.failed++;
  result.errors.push({ line, error });
  if (result.errors.length >= 2 * MAX_REPORTED_ERRORS) firstErrors(result);
}

/**
 * The first MAX_REPORTED_ERRORS errors by line. Lines are read while the batches before them are
 * still prepared and written, whose errors (an id that may not be overwritten) come later: the
 * errors are kept in line order here, not in the order they were found.
 */
function firstErrors(result: ImportResultWire): void {
  result.errors.sort((a, b) => a.line - b.line);
  result.errors.length = Math.min(result.errors.length, MAX_REPORTED_ERRORS);
}

/**
 * Where a record goes. With an API key: the caller's scope (a workspace record belongs to the
 * calling agent and keeps its visibility; a user-scope record has none). With the admin token:
 * the subject's user, each record in its own workspace and agent (so an admin export, imported
 * back, restores every agent's memories as they were).
 */
function placement(target: ImportTarget, record: ImportRecord): Pick<Planned, 'scope' | 'owner' | 'columns'> {
  if (target.kind === 'scope') {
    const scope = target.scope;
    if (scope.kind === 'user') return { scope, owner: scope, columns: { workspaceId: null, agentId: null, visibility: null } };
    return {
      scope,
      owner: scope,
      columns: { workspaceId: scope.workspaceId, agentId: scope.agentId, visibility: record.visibility ?? 'workspace' },
    };
  }
  if (record.workspaceId === null) {
    if (target.workspaceId !== null) throw new BadLine('workspace_id must be the workspace imported into');
    const scope: MemoryScope = { kind: 'user', userId: target.userId };
    return { scope, owner: scope, columns: { workspaceId: null, agentId: null, visibility: null } };
  }
  if (target.workspaceId !== null && record.workspaceId !== target.workspaceId) {
    throw new BadLine('workspace_id must be the workspace imported into');
  }
  const columns = { workspaceId: record.workspaceId, agentId: record.agentId, visibility: record.visibility };
  // A workspace row of no agent (a legacy row): gated by its source alone, and no one may overwrite it or give grants on it.
  if (record.agentId === null) return { scope: { kind: 'user', userId: target.userId }, owner: null, columns };
  const scope: WorkspaceScope = {
    kind: 'workspace',
    userId: target.userId,
    workspaceId: record.workspaceId,
    agentId: record.agentId,
    agentScope: { kind: 'all' },
  };
  return { scope, owner: scope, columns };
}

function newRow(item: Planned, id: string, trustScore: number, vector: number[], embeddedBy: string): NewMemory {
  const r = item.record;
  return {
    id,
    userId: item.scope.userId,
    ...item.columns,
    content: r.content,
    memoryType: r.memoryType,
    importance: r.importance,
    sourceSite: r.sourceSite,
    sourceUrl: r.sourceUrl,
    episodeId: null,
    namespace: r.namespace,
    status: r.status,
    metadata: r.metadata,
    expiresAt: r.expiresAt,
    trustScore,
    embedding: vector,
    embeddedBy,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}
