import { randomUUID } from 'node:crypto';

import type { Pool, PoolClient } from 'pg';
import { DataSource, type EntityManager, type ObjectLiteral, type SelectQueryBuilder, type UpdateQueryBuilder } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import type { PostgresQueryRunner } from 'typeorm/driver/postgres/PostgresQueryRunner';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';

import { assertNever } from '../../common/errors/domain-error';
import type { Actor } from '../../common/identity/principal';
import type { MemoryScope, WorkspaceScope } from '../../common/scope/memory-scope';
import type { WireVersionChange } from '../../contract/wire-types';
import { appendAuditEvents, auditInsert, type AuditEvent } from '../audit/audit-log';
import { isConstraintViolation } from '../database-errors';
import { EpisodeEntity } from '../entities/episode.entity';
import { LessonEntity } from '../entities/lesson.entity';
import { MemoryEntity } from '../entities/memory.entity';
import { bm25Statement, rankedBm25Statement, termStatsStatement, toTermStatistics, type TermStatistics } from './bm25-statement';
import { eraseSubject, SUBJECT_LOCK_KEY, type ErasureReceipt, type ErasureSubject } from './erasure';
import { hnswSessionSettings } from './hnsw-settings';
import { checkLessonStatement } from './lesson-statement';
import { RECORD_SELECT, toRecordRow, type MemoryRecordRow } from './record-statement';
import { scopedSelect, scopedUpdate, type ScopedSelect, type ScopedUpdate } from './scoped-query';
import {
  RANKED_TEXT_COLUMNS,
  searchStatementSql,
  textStatementSql,
  toRankedTextResult,
  toSearchResult,
  toTextResult,
  type RankedTextResult,
  type SearchStatementResult,
  type TextStatementResult,
} from './search-statement';
import {
  planValues,
  purposeOf,
  searchFilterValues,
  shapeKeyOf,
  timeOf,
  type FullTextPlan,
  type RankedTextPlan,
  type RecordPlan,
  type SearchFilters,
  type StatementPlan,
  type TermStatsPlan,
  type VectorPlan,
} from './statement-plans';
import { bindShape, renderShape, ShapeCache, shapeName, type StatementShape } from './statement-shape';
import {
  applyMemoryScope,
  CURRENT,
  postingRanges,
  readRuleConditions,
  scopeParameters,
  termStatsCondition,
  timeCondition,
  type AccessPurpose,
  type ReadRule,
  type ReadTime,
} from './visibility';
import { LESSON_MATCHED_SQL, outboxCtes } from './webhook-outbox';

export type NewMemory = Omit<MemoryEntity, 'deletedAt' | 'supersededAt' | 'supersededBy' | 'version' | 'validUntil'>;

/** What a version row says happened (CONTRACT section 12; the memory_versions CHECK lists the same). */
export type VersionChange = WireVersionChange;

/** One row of memory_versions, as the history route returns it. */
export interface MemoryVersionRow {
  version: number;
  change: VersionChange;
  content: string;
  metadata: Record<string, unknown>;
  visibility: string | null;
  expires_at: Date | null;
  changed_at: Date;
  agent_id: string | null;
  key_id: string | null;
}

/** The columns a version row copies from the memory as it is after the change. */
const VERSIONED_COLUMNS = 'user_id, id, version, content, metadata, visibility, expires_at, workspace_id, agent_id';

/**
 * One memory of a user as an agent of a workspace meets the read rule (explainVisibility):
 * where the row is, whether the read predicate lets it through, and which of the rule's
 * alternatives hold on it.
 */
export interface VisibilityExplanationRow extends Record<ReadRule, boolean> {
  workspace_id: string | null;
  agent_id: string | null;
  visibility: string | null;
  deleted: boolean;
  superseded: boolean;
  /** Past its expires_at. */
  expired: boolean;
  /** The whole read predicate (applyMemoryScope, purpose `read`, agent_scope `all`) on this row. */
  visible: boolean;
}

export interface GrantRow {
  grantee_agent_id: string;
  created_at: Date;
}

/**
 * What an export reads (CONTRACT section 13): a caller's scope, under the read rule of list
 * exactly, or for the admin token a subject's every row, any visibility: one user's (all of
 * its personal and workspace rows) or one workspace of that user.
 */
export type ExportSource = { kind: 'scope'; scope: MemoryScope } | { kind: 'subject'; userId: string; workspaceId: string | null };

/** Where the next page of an export starts: after this row, in (created_at, id) order. */
export interface ExportCursor {
  /** created_at as PostgreSQL's text (microseconds kept, so no row is skipped or repeated). */
  createdAt: string;
  id: string;
}

/** One exported memory: its record, its grants when the source owns it, its vector when asked. */
export interface ExportRow extends MemoryRecordRow {
  grants: { grantee_agent_id: string; created_at: string }[] | null;
  embedding: string | null;
  cursor: ExportCursor;
}

export interface MemoryAccessOptions {
  /**
   * Where shaped statements (search, textSearch, records) run as named prepared statements, parsed and
   * planned once per connection (DATABASE_PREPARED_STATEMENTS; statement-pool.ts). Null: the
   * same text as unnamed statements on the main pool, for poolers in transaction mode
   * (PgBouncer before 1.21) and the embedded database.
   */
  statementPool: Pool | null;
  /**
   * Pools of sessions configured with HNSW plan settings (statement-pool.ts, one per ef_search
   * of the deployment's tuning), where a search that asks for exactly one pool's settings runs
   * as one named statement instead of a short transaction that sets them. Absent or empty:
   * the transaction.
   */
  indexedPools?: readonly { pool: Pool; settings: Readonly<Record<string, string>> }[];
}

/** An erasure that left residue: its transaction was rolled back, nothing was erased. */
export class ErasureResidueError extends Error {
  constructor(readonly receipt: ErasureReceipt) {
    super(`erasure left residue and was rolled back: ${JSON.stringify(receipt.residue)}`);
    this.name = 'ErasureResidueError';
  }
}

/**
 * Inserts of up to this many rows run as named statements (MemoryAccess.write): one text per
 * row count, so a connection holds a handful of them; a larger batch (an import) stays unnamed.
 */
const NAMED_WRITE_ROWS = 4;

/** Statement shapes are text only, the same for every MemoryAccess: one cache per process. */
const SHAPES = new ShapeCache();

/**
 * The one door into the tenant tables (memories, episodes, visibility grants, lessons). It is
 * the only code that reaches their TypeORM repositories and opens transactions on them (a lint rule and
 * test/architecture/one-door.check.spec.ts keep it so); everything else asks it for:
 * - a memory statement scoped for a purpose (`memories`, `updateMemories`): a ScopedSelect or
 *   ScopedUpdate (scoped-query.ts) that holds the visibility predicate of visibility.ts and
 *   offers nothing that could replace, widen or rebind it;
 * - the shaped statements (`search`, `textSearch`, `records`): the caller hands a plan value
 *   (statement-plans.ts) and the door derives the shape key, renders the SQL once per shape,
 *   binds the plan's values and the scope's (from the scope, never from the caller) and runs;
 * - owner-gated grant statements (the grants SQL lives here, next to the owner predicate);
 * - lesson statements keyed by user: `lessons(userId)` is a ScopedSelect with the user bound,
 *   and `userQuery` runs hand-written SQL on the lessons table alone, filtered or written by
 *   `user_id = $1` (lesson-statement.ts checks the statement before it is sent);
 * - inserts of new rows, which carry their own tenant columns;
 * - `transaction(fn)`, which hands `fn` a MemoryAccess bound to one transaction, with
 *   transaction-local settings applied first.
 */
export class MemoryAccess {
  private readonly manager: EntityManager;

  /** With a manager: a MemoryAccess whose statements all run in that manager's transaction. */
  constructor(
    dataSource: DataSource,
    manager?: EntityManager,
    private readonly options: MemoryAccessOptions = { statementPool: null },
  ) {
    this.manager = manager ?? dataSource.manager;
  }

  get preparedStatements(): boolean {
    return this.options.statementPool !== null;
  }

  /**
   * Runs `fn` in one transaction. `settings` are applied with set_config(name, value, true)
   * first, so they last for this transaction only (safe on a shared embedded backend and
   * behind a transaction-mode pooler).
   */
  async transaction<T>(fn: (tx: MemoryAccess) => Promise<T>, settings: Record<string, string> = {}): Promise<T> {
    return this.manager.transaction(async (manager) => {
      const names = Object.keys(settings);
      if (names.length > 0) {
        const calls = names.map((_, i) => `set_config($${2 * i + 1}, $${2 * i + 2}, true)`).join(', ');
        await manager.query(
          `SELECT ${calls}`,
          names.flatMap((name) => [name, settings[name]]),
        );
      }
      return fn(new MemoryAccess(manager.connection, manager, this.options));
    });
  }

  /**
   * SELECT over the memories `scope` may touch for `purpose`, at `time` (visibility.ReadTime),
   * as a ScopedSelect: the caller narrows, orders and pages; it cannot widen or rebind the
   * predicate. Joins: the row's access counts (`memory_access_counts`) and its episode
   * (`episodes`), on the same user.
   */
  memories(
    scope: MemoryScope,
    purpose: AccessPurpose,
    alias = 'm',
    time: ReadTime = CURRENT,
  ): ScopedSelect<MemoryEntity, typeof MEMORY_JOINS> {
    return scopedSelect(this.scoped(scope, purpose, alias, time), scopeParameters(scope, time), alias, MEMORY_JOINS);
  }

  /**
   * UPDATE of the memories `scope` may touch for `purpose` (alias `memories` in conditions).
   * `parameters`: the values the SET clause's own expressions name (never `vis_*`).
   */
  updateMemories(
    scope: MemoryScope,
    purpose: AccessPurpose,
    values: QueryDeepPartialEntity<MemoryEntity>,
    parameters?: Record<string, unknown>,
    time: ReadTime = CURRENT,
  ): ScopedUpdate<MemoryEntity> {
    return scopedUpdate(this.scopedUpdateBuilder(scope, purpose, values, time), scopeParameters(scope, time), parameters);
  }

  /** The door's own builders over memories, predicate applied (never handed out). */
  private scoped(scope: MemoryScope, purpose: AccessPurpose, alias: string, time: ReadTime = CURRENT): SelectQueryBuilder<MemoryEntity> {
    return applyMemoryScope(this.manager.getRepository(MemoryEntity).createQueryBuilder(alias), alias, scope, purpose, time);
  }

  private scopedUpdateBuilder(
    scope: MemoryScope,
    purpose: AccessPurpose,
    values: QueryDeepPartialEntity<MemoryEntity>,
    time: ReadTime = CURRENT,
  ): UpdateQueryBuilder<MemoryEntity> {
    const qb = this.manager.createQueryBuilder().update(MemoryEntity).set(values);
    return applyMemoryScope(qb, 'memories', scope, purpose, time);
  }

  /**
   * Changes one memory that `scope` may touch for `purpose` and records the change, in ONE
   * statement: the UPDATE (which raises `version` by one) and the INSERT of its memory_versions
   * row are data-modifying CTEs, so a change without its version, or a version without its
   * change, cannot happen. Two concurrent changes of one memory serialise on its row lock (the
   * second UPDATE waits, then re-reads the row under READ COMMITTED and takes the next
   * version), so neither version is lost. The version row's agent is the changing agent (null
   * in user scope), which need not be the row's owner (an ingest UPDATE of another agent's
   * workspace row). Returns the new version and the row's owning agent, or null when no row matched.
   */
  async changeMemory(
    scope: MemoryScope,
    purpose: AccessPurpose,
    id: string,
    values: QueryDeepPartialEntity<MemoryEntity>,
    change: VersionChange,
    actor: Actor,
    options: { time?: ReadTime; parameters?: ObjectLiteral } = {},
  ): Promise<{ version: number; ownerAgentId: string | null } | null> {
    const [updateSql, updateParameters] = this.scopedUpdateBuilder(
      scope,
      purpose,
      { ...values, version: () => 'version + 1', updatedAt: () => 'now()' },
      options.time,
    )
      .andWhere('memories.id = :changedId', { changedId: id })
      .setParameters(options.parameters ?? {})
      .returning(VERSIONED_COLUMNS)
      .getQueryAndParameters();
    const n = updateParameters.length;
    const rows: { version: number; owner_agent_id: string | null }[] = await this.manager.query(
      `WITH changed AS (${updateSql}),
            versioned AS (
              INSERT INTO memory_versions (user_id, memory_id, version, change, content, metadata, visibility, expires_at, workspace_id, agent_id, key_id)
              SELECT c.user_id, c.id, c.version, $${n + 1}, c.content, c.metadata, c.visibility, c.expires_at, c.workspace_id, $${n + 2}, $${n + 3}
                FROM changed c
              RETURNING version)
       SELECT v.version, c.agent_id AS owner_agent_id FROM versioned v CROSS JOIN changed c`,
      [...updateParameters, change, changingAgent(scope), actor.keyId],
    );
    return rows[0] ? { version: rows[0].version, ownerAgentId: rows[0].owner_agent_id } : null;
  }

  /**
   * The versions of one memory, oldest first, when `scope` may read it at all (deleted,
   * superseded and expired rows included: `any` time): the history carries the visibility rule
   * of the memory it belongs to, in the same statement. Null when the memory is not visible.
   */
  async memoryVersions(scope: MemoryScope, id: string): Promise<MemoryVersionRow[] | null> {
    const [visibleSql, parameters] = this.scoped(scope, 'read', 'm', { kind: 'any' })
      .select('m.id', 'id')
      .addSelect('m.user_id', 'user_id')
      .andWhere('m.id = :historyId', { historyId: id })
      .getQueryAndParameters();
    // A LEFT JOIN: a visible memory yields at least one row, an invisible one none (404).
    const rows: (MemoryVersionRow | { version: null })[] = await this.manager.query(
      `WITH visible AS (${visibleSql})
       SELECT v.version, v.change, v.content, v.metadata, v.visibility, v.expires_at, v.changed_at, v.agent_id, v.key_id
         FROM visible m LEFT JOIN memory_versions v ON v.user_id = m.user_id AND v.memory_id = m.id
        ORDER BY v.version`,
      parameters,
    );
    if (rows.length === 0) return null;
    return rows.filter((row): row is MemoryVersionRow => row.version !== null);
  }

  /**
   * A vector search (searchStatementSql: key check, lesson check, scoped candidates and top k
   * in one statement). The exact plan runs as a named statement on the statement pool. The
   * HNSW plan runs under its session settings (hnsw-settings.ts): one named statement on the
   * indexed pool whose sessions already have exactly these settings, else a short
   * transaction that sets them first (behind a pooler, on the embedded database, inside a
   * transaction, or with other tuning).
   */
  async search(plan: VectorPlan): Promise<SearchStatementResult> {
    const [shape, values] = this.prepare(plan);
    switch (plan.statement) {
      case 'exact-vector':
        return toSearchResult(await this.run(shape, values));
      case 'hnsw-vector': {
        const settings = hnswSessionSettings(plan.efSearch, plan.k);
        const indexed = this.options.indexedPools?.find((candidate) => sameSettings(candidate.settings, settings));
        if (indexed && !this.manager.queryRunner) {
          return toSearchResult(await this.run(shape, values, indexed.pool));
        }
        return this.transaction(async (tx) => toSearchResult(await tx.run(shape, values)), settings);
      }
      default:
        return assertNever(plan);
    }
  }

  /** The full-text side of a filtered hybrid search (textStatementSql over bm25-statement.ts, bm25Statement). */
  async textSearch(plan: FullTextPlan): Promise<TextStatementResult> {
    const [shape, values] = this.prepare(plan);
    return toTextResult(await this.run(shape, values));
  }

  /** The full-text side of an unfiltered hybrid search: BM25 over the postings in one statement (bm25-statement.ts, rankedBm25Statement). */
  async rankedText(plan: RankedTextPlan): Promise<RankedTextResult> {
    const [shape, values] = this.prepare(plan);
    return toRankedTextResult(await this.run(shape, values));
  }

  /** The caller's BM25 statistics for a query (bm25-statement.ts, termStatsStatement). */
  async termStatistics(plan: TermStatsPlan): Promise<TermStatistics> {
    const [shape, values] = this.prepare(plan);
    return toTermStatistics(await this.run(shape, values));
  }

  /**
   * Memory records (the row and its access counts, from memory_access_counts) that the plan's
   * scope may read: by id, by ids, or one page of the list, newest first.
   */
  async records(plan: RecordPlan): Promise<MemoryRecordRow[]> {
    const [shape, values] = this.prepare(plan);
    const rows = await this.run<Parameters<typeof toRecordRow>[0]>(shape, values);
    return rows.map(toRecordRow);
  }

  /**
   * The plan's statement (rendered on the first use of its shape key) and its positional
   * values: the plan's own, then the scope's, from the scope (so nothing in the plan can
   * stand in for them).
   */
  private prepare(plan: StatementPlan): [StatementShape, unknown[]] {
    const values = { ...planValues(plan), ...scopeParameters(plan.scope, timeOf(plan)) };
    const shape = SHAPES.get(shapeKeyOf(plan), () => {
      const driver = this.manager.connection.driver as PostgresDriver;
      return renderShape(
        this.namedSql(plan),
        Object.keys(values),
        (sql, params) => driver.escapeQueryWithParameters(sql, params) as [string, unknown[]],
      );
    });
    return [shape, bindShape(shape, values)];
  }

  /** The plan's SQL with named parameters (`:name`), built from the door's scoped builders. */
  private namedSql(plan: StatementPlan): string {
    const purpose = purposeOf(plan);
    const time = timeOf(plan);
    switch (plan.statement) {
      case 'exact-vector': {
        const candidates = this.scoped(plan.scope, purpose, 'v', time)
          .select('v.id', 'id')
          .addSelect('cosine_distance(v.embedding, CAST(:q AS vector))', 'distance');
        applySearchFilters(candidates, 'v', plan.filters);
        return searchStatementSql(candidates.getQuery(), plan.gate !== null, plan.bound !== null, plan.liveKeyId !== null);
      }
      case 'hnsw-vector': {
        if (time.kind === 'as-of') {
          // What was valid at T is live rows valid then plus rows no longer current that were
          // valid then. As one OR the planner cannot prove a tenant graph's predicate (live
          // rows only), so the two sides are searched apart and their candidates united: the
          // live side walks the scope's own graph (or the partition's), the history side, rows
          // that were edited away, superseded or deleted, is ranked exactly through its own
          // partial index. Each side brings the full over-fetch; the statement keeps k.
          const live = this.hnswCandidates(plan, purpose, { ...time, branch: 'live' });
          const history = this.scoped(plan.scope, purpose, 'v', { ...time, branch: 'history' })
            .select('v.id', 'id')
            .addSelect('cosine_distance(v.embedding, CAST(:q AS vector))', 'distance');
          applySearchFilters(history, 'v', plan.filters);
          history.orderBy('distance', 'ASC');
          const union = `(${live.getQuery()} LIMIT :candidateLimit) UNION ALL (${history.getQuery()} LIMIT :candidateLimit)`;
          return searchStatementSql(union, plan.gate !== null, false, plan.liveKeyId !== null);
        }
        return searchStatementSql(this.hnswCandidates(plan, purpose, time).getQuery(), plan.gate !== null, true, plan.liveKeyId !== null);
      }
      case 'full-text': {
        const matches = this.scoped(plan.scope, purpose, 't', time);
        const population = this.scoped(plan.scope, purpose, 'p', time);
        applySearchFilters(matches, 't', plan.filters);
        applySearchFilters(population, 'p', plan.filters);
        return textStatementSql(bm25Statement(matches, population, plan.words, plan.words.join(' | '), plan.k).sql);
      }
      case 'term-stats':
        return termStatsStatement(this.scoped(plan.scope, purpose, 'e', time), termStatsCondition('s', plan.scope));
      case 'ranked-text': {
        const ranked = rankedBm25Statement(
          termStatsStatement(this.scoped(plan.scope, purpose, 'e', time), termStatsCondition('s', plan.scope)),
          this.scoped(plan.scope, purpose, 't', time),
          (alias) => termStatsCondition(alias, plan.scope),
          (alias) => postingRanges(alias, plan.scope),
        );
        // The k rows themselves through the door: the postings choose them, the predicate still decides.
        return textStatementSql(ranked, this.scoped(plan.scope, purpose, 'v', time).select('v.id', 'id').getQuery(), RANKED_TEXT_COLUMNS);
      }
      case 'record-by-id':
        return this.recordSelect(plan.scope, purpose, time).andWhere('m.id = :id').getQuery();
      case 'records-by-ids':
        return this.recordSelect(plan.scope, purpose, time).andWhere('m.id = ANY(CAST(:ids AS uuid[]))').getQuery();
      case 'record-page': {
        const qb = this.recordSelect(plan.scope, purpose, time);
        if (plan.filters.sourceSite !== undefined) qb.andWhere('m.source_site = :sourceSite');
        if (plan.filters.episodeId !== undefined) qb.andWhere('m.episode_id = :episodeId');
        return `${qb.orderBy('m.created_at', 'DESC').addOrderBy('m.id', 'DESC').getQuery()} LIMIT :limit OFFSET :offset`;
      }
      default:
        return assertNever(plan);
    }
  }

  /**
   * The HNSW plan's candidates: ordered by the `<=>` operator so the index serves them; the
   * statement re-sorts by `distance + 0` (they come in *relaxed* order, and ordered by plain
   * `distance` the planner would take them for sorted and read only the first k).
   */
  private hnswCandidates(plan: VectorPlan, purpose: AccessPurpose, time: ReadTime): SelectQueryBuilder<MemoryEntity> {
    const candidates = this.scoped(plan.scope, purpose, 'v', time)
      .select('v.id', 'id')
      .addSelect('v.embedding <=> CAST(:q AS vector)', 'distance');
    applySearchFilters(candidates, 'v', plan.filters);
    return candidates.orderBy('distance', 'ASC');
  }

  /** A record read's select list over the alias `m`: the row and its access counts. */
  private recordSelect(scope: MemoryScope, purpose: AccessPurpose, time: ReadTime): SelectQueryBuilder<MemoryEntity> {
    // The counts come from scalar subqueries on the visible row's own user and id: columns,
    // never rows, and a primary-key probe per returned row whatever the statistics say. (As
    // a LEFT JOIN, the generic plan of a workspace list on a large user materialized all of
    // the user's counts and compared every listed row with each; docs/benchmarks.md, step 9.)
    const counts = (column: string) =>
      `(SELECT ac.${column} FROM memory_access_counts ac WHERE ac.user_id = m.user_id AND ac.memory_id = m.id)`;
    return this.scoped(scope, purpose, 'm', time)
      .select(RECORD_SELECT)
      .addSelect(`COALESCE(${counts('access_count')}, 0)`, 'access_count')
      .addSelect(counts('last_accessed_at'), 'last_accessed_at');
  }

  /**
   * One shaped statement on the pg driver. With a statement pool: named (prepared once per
   * connection, generic plan) on that pool, or named on this MemoryAccess's transaction
   * connection when it has one (planned per execution there: that session keeps the default
   * plan_cache_mode). Without: unnamed, on the transaction connection or the main pool.
   * `statementPool` names another pool of named statements (the indexed pool).
   */
  private async run<T>(shape: StatementShape, values: unknown[], statementPool = this.options.statementPool): Promise<T[]> {
    const config = statementPool ? { name: shape.name, text: shape.text, values } : { text: shape.text, values };
    // TypeORM's logger sees these statements too (the benchmark records plans through it).
    this.manager.connection.logger.logQuery(shape.text, values);
    const runner = this.manager.queryRunner as PostgresQueryRunner | undefined;
    if (runner) {
      const client = (await runner.connect()) as PoolClient;
      return (await client.query(config)).rows as T[];
    }
    const pool = statementPool ?? ((this.manager.connection.driver as PostgresDriver).master as Pool);
    return (await pool.query(config)).rows as T[];
  }

  // ---- export: keyset pages in (created_at, id) order ----

  /**
   * One page of an export: at most `limit` memories of `source` after `after`, oldest first.
   * A caller's scope reads through the predicate of list (purpose `read`, its agent_scope
   * included); a subject (the admin) reads that user's or workspace's rows, every visibility.
   * Keyset, not OFFSET: every page is an index range scan of the same cost, and a row written
   * meanwhile neither shifts nor repeats the rows after it. The owner's rows carry their grants
   * (a scalar subquery on the row's own user), and the vector as text when asked.
   */
  async exportPage(
    source: ExportSource,
    after: ExportCursor | null,
    limit: number,
    options: { includeVectors: boolean; includeExpired: boolean },
  ): Promise<ExportRow[]> {
    const time: ReadTime = options.includeExpired ? { kind: 'current-with-expired' } : CURRENT;
    let qb: SelectQueryBuilder<MemoryEntity>;
    let owned: string;
    switch (source.kind) {
      case 'scope':
        qb = this.recordSelect(source.scope, 'read', time);
        owned = source.scope.kind === 'workspace' ? 'm.agent_id = :vis_agentId' : 'TRUE';
        break;
      case 'subject':
        qb = this.subjectRecordSelect(source.userId, source.workspaceId, time);
        owned = 'TRUE';
        break;
      default:
        return assertNever(source);
    }
    const grants =
      `(SELECT COALESCE(json_agg(json_build_object('grantee_agent_id', g.grantee_agent_id, 'created_at', g.created_at)` +
      ` ORDER BY g.created_at, g.grantee_agent_id), '[]'::json) FROM memory_visibility_grants g WHERE g.user_id = m.user_id AND g.memory_id = m.id)`;
    qb.addSelect(`CASE WHEN ${owned} THEN ${grants} END`, 'grants')
      .addSelect('CAST(m.created_at AS text)', 'cursor_at')
      .addSelect(options.includeVectors ? 'CAST(m.embedding AS text)' : 'NULL', 'embedding_text');
    if (after) {
      // Written so the first term bounds the (user, created_at) index scan; the row comparison
      // `(created_at, id) > (...)` would only filter, and every page would read from the start.
      qb.andWhere('m.created_at >= CAST(:exportAfterAt AS timestamptz)');
      qb.andWhere('(m.created_at > CAST(:exportAfterAt AS timestamptz) OR m.id > CAST(:exportAfterId AS uuid))', {
        exportAfterAt: after.createdAt,
        exportAfterId: after.id,
      });
    }
    const rows = await qb.orderBy('m.created_at', 'ASC').addOrderBy('m.id', 'ASC').limit(limit).getRawMany();
    return rows.map((row: Parameters<typeof toRecordRow>[0] & { grants: unknown; cursor_at: string; embedding_text: string | null }) => ({
      ...toRecordRow(row),
      grants: (row.grants as ExportRow['grants']) ?? null,
      embedding: row.embedding_text,
      cursor: { createdAt: row.cursor_at, id: row.id as string },
    }));
  }

  /** Every row of one user (or one workspace of it) at `time`, any visibility: the admin export. */
  private subjectRecordSelect(userId: string, workspaceId: string | null, time: ReadTime): SelectQueryBuilder<MemoryEntity> {
    const counts = (column: string) =>
      `(SELECT ac.${column} FROM memory_access_counts ac WHERE ac.user_id = m.user_id AND ac.memory_id = m.id)`;
    const qb = this.manager
      .getRepository(MemoryEntity)
      .createQueryBuilder('m')
      .select(RECORD_SELECT)
      .addSelect(`COALESCE(${counts('access_count')}, 0)`, 'access_count')
      .addSelect(counts('last_accessed_at'), 'last_accessed_at')
      .andWhere('m.user_id = :subjectUserId', { subjectUserId: userId })
      .andWhere(timeCondition('m', time));
    if (workspaceId !== null) qb.andWhere('m.workspace_id = :subjectWorkspaceId', { subjectWorkspaceId: workspaceId });
    return qb;
  }

  // ---- the admin's "why can this agent see it?" ----

  /**
   * How the read rule judges memory `memoryId` of the scope's user for the scope's agent
   * (agent_scope `all`): `visible` is the predicate of applyMemoryScope itself, evaluated on
   * that row, and each ReadRule's condition (readRuleConditions) too, so the explanation is
   * the same SQL as every read (of the current rows). Null when the user has no memory with
   * that id (deleted, superseded and expired rows are explained, not hidden).
   */
  async explainVisibility(scope: WorkspaceScope, memoryId: string): Promise<VisibilityExplanationRow | null> {
    // The door's own builder (never handed out), with the predicate of every read applied.
    const readable = this.scoped({ ...scope, agentScope: { kind: 'all' } }, 'read', 'r')
      .select('1')
      .andWhere('r.id = e.id');
    const rules = readRuleConditions('e');
    const row = await this.manager
      .getRepository(MemoryEntity)
      .createQueryBuilder('e')
      .select('e.workspace_id', 'workspace_id')
      .addSelect('e.agent_id', 'agent_id')
      .addSelect('e.visibility', 'visibility')
      .addSelect('e.deleted_at IS NOT NULL', 'deleted')
      .addSelect('e.superseded_at IS NOT NULL', 'superseded')
      .addSelect('e.expires_at IS NOT NULL AND e.expires_at <= now()', 'expired')
      .addSelect(`EXISTS (${readable.getQuery()})`, 'visible')
      // NULL (a personal row has no agent) counts as "does not hold".
      .addSelect(`COALESCE(${rules.owner}, FALSE)`, 'owner')
      .addSelect(`COALESCE(${rules.workspace}, FALSE)`, 'workspace')
      .addSelect(`COALESCE(${rules.grant}, FALSE)`, 'grant')
      .andWhere('e.user_id = :vis_userId')
      .andWhere('e.id = :explainMemoryId')
      .setParameters({ ...readable.getParameters(), explainMemoryId: memoryId })
      .getRawOne<VisibilityExplanationRow>();
    return row ?? null;
  }

  // ---- access counts (memory_access_counts): written and removed only for memories in scope ----

  /**
   * Adds `increment` to the access count of each memory among `ids` that `scope` may read
   * (the read's own predicate, in the same statement), and sets last_accessed_at. Rows are
   * taken in id order, so two writers lock them in the same order.
   */
  async recordAccess(scope: MemoryScope, increment: number, ids: readonly string[]): Promise<void> {
    // Under the user's subject lock: counts written after an erasure of the user committed would
    // name memories that are gone (the table has no foreign key to memories).
    if (!this.manager.queryRunner) return this.transaction((tx) => tx.recordAccess(scope, increment, ids));
    await this.holdSubjects([scope.userId]);
    const [selectSql, params] = this.scoped(scope, 'read', 'm')
      .select('m.user_id', 'user_id')
      .addSelect('m.id', 'memory_id')
      .addSelect('CAST(:accessIncrement AS integer)', 'access_count')
      .addSelect('now()', 'last_accessed_at')
      .andWhere('m.id = ANY(CAST(:accessIds AS uuid[]))')
      .orderBy('m.id')
      .setParameters({ accessIncrement: increment, accessIds: [...ids].sort() })
      .getQueryAndParameters();
    await this.manager.query(
      `INSERT INTO memory_access_counts (user_id, memory_id, access_count, last_accessed_at)
       SELECT s.user_id, s.memory_id, s.access_count, s.last_accessed_at FROM (${selectSql}) s
       ON CONFLICT (user_id, memory_id) DO UPDATE
         SET access_count = memory_access_counts.access_count + EXCLUDED.access_count, last_accessed_at = EXCLUDED.last_accessed_at`,
      params,
    );
  }

  /**
   * Removes the counts of a memory that is no longer live (deleted or superseded): called in
   * the transaction that ended it. A live memory's counts are never removed here.
   */
  async dropAccessCounts(userId: string, memoryId: string): Promise<void> {
    await this.manager.query(
      `DELETE FROM memory_access_counts c
        WHERE c.user_id = $1 AND c.memory_id = $2
          AND NOT EXISTS (SELECT 1 FROM memories m
                           WHERE m.user_id = $1 AND m.id = $2 AND m.deleted_at IS NULL AND m.superseded_at IS NULL)`,
      [userId, memoryId],
    );
  }

  /** New rows (and their `created` versions) without audit events: tests and scripts. */
  async insertMemories(rows: NewMemory[], actor: Actor = { keyId: null, requestId: null }): Promise<void> {
    await this.insertMemoriesAudited(rows, actor, []);
  }

  /**
   * New rows and their audit events in one statement: the rows' INSERT and the events' INSERT
   * as data-modifying CTEs, which commit or fail together like the two statements of a
   * transaction. With `episode` (the ingest call the rows came from), its INSERT is one more CTE
   * of the same statement. Without rows, the episode alone.
   *
   * Outside `transaction(fn)` the statement is its own transaction, and takes the users' subject
   * locks itself: a first CTE (`held`) takes them, and every row the statement writes is formed
   * from it (the rows' first version, the episode's row source, the events' row source; the
   * versions and webhook events are formed from those), so nothing is written before every lock
   * is held. One round trip instead of four (BEGIN, the locks, the INSERT, COMMIT), for every
   * stored ingest (docs/bench-notes/write-path.md, "One statement a stored write"). Inside
   * `transaction(fn)` it is one more statement of that transaction, after holdSubjects.
   *
   * The single statement reads the webhook subscriptions (to fan the events out) with the
   * snapshot it took before waiting for a lock. An erasure that held the lock and removed a
   * subscription meanwhile makes its outbox row fail the subscription's foreign key; the write
   * is then made again as a transaction, whose statements see what the erasure left.
   */
  async insertMemoriesAudited(rows: NewMemory[], actor: Actor, events: readonly AuditEvent[], episode?: EpisodeEntity): Promise<void> {
    if (rows.length === 0) {
      if (episode) await this.insertEpisode(episode);
      return;
    }
    const users = [...rows.map((row) => row.userId), ...(episode ? [episode.userId] : [])];
    if (this.manager.queryRunner) {
      await this.holdSubjects(users);
      const [sql, parameters] = this.storeStatement(rows, actor, events, episode, null);
      return this.write(sql, parameters, rows.length <= NAMED_WRITE_ROWS);
    }
    const [sql, parameters] = this.storeStatement(rows, actor, events, episode, users);
    try {
      await this.write(sql, parameters, rows.length <= NAMED_WRITE_ROWS);
    } catch (error) {
      if (!isConstraintViolation(error, STALE_SUBSCRIPTION_CONSTRAINT)) throw error;
      await this.transaction((tx) => tx.insertMemoriesAudited(rows, actor, events, episode));
    }
  }

  /**
   * The statement insertMemoriesAudited sends: with `lockUsers`, led by the `held` CTE that takes
   * their subject locks, every written row formed from it; with null, for a transaction that
   * already holds them.
   */
  private storeStatement(
    rows: NewMemory[],
    actor: Actor,
    events: readonly AuditEvent[],
    episode: EpisodeEntity | undefined,
    lockUsers: readonly string[] | null,
  ): [string, unknown[]] {
    const held = lockUsers !== null;
    const [insertSql, insertParameters] = this.manager
      .createQueryBuilder()
      .insert()
      .into(MemoryEntity)
      .values(rows.map((row) => ({ ...row, version: held ? () => HELD_FIRST_VERSION : 1 })) as QueryDeepPartialEntity<MemoryEntity>[])
      .updateEntity(false)
      .returning('user_id, id, content, metadata, visibility, expires_at, workspace_id, agent_id')
      .getQueryAndParameters();
    // Each new row's `created` version (its agent is the row's own), in the same statement.
    const keyParameter = insertParameters.length + 1;
    const ctes = [
      `stored AS (${insertSql})`,
      `versioned AS (
        INSERT INTO memory_versions (user_id, memory_id, version, change, content, metadata, visibility, expires_at, workspace_id, agent_id, key_id)
        SELECT s.user_id, s.id, 1, 'created', s.content, s.metadata, s.visibility, s.expires_at, s.workspace_id, s.agent_id, CAST($${keyParameter} AS uuid)
          FROM stored s)`,
    ];
    const parameters: unknown[] = [...insertParameters, actor.keyId];
    if (held) {
      ctes.unshift(`held AS (${HELD_SUBJECTS(`$${parameters.length + 1}`)})`);
      parameters.push(lockOrder(lockUsers));
    }
    if (episode) {
      const values = episodeValues(episode);
      const at = parameters.length;
      ctes.push(
        `episode AS (${EPISODE_INSERT(
          values.map((_, i) => `$${at + i + 1}`),
          held ? 'held' : undefined,
        )})`,
      );
      parameters.push(...values);
    }
    if (events.length > 0) {
      const audit = auditInsert(actor, events, parameters.length, held);
      ctes.push(`audited AS (${audit.sql})`);
      parameters.push(...audit.parameters);
      // The webhook events of the new rows, in the same statement (webhook-outbox.ts).
      const outbox = outboxCtes(events, 'stored', parameters.length);
      ctes.push(...outbox.ctes);
      parameters.push(...outbox.parameters);
    }
    return [`WITH ${ctes.join(', ')} SELECT 1`, parameters];
  }

  /**
   * A write statement (its rows are not read), in this MemoryAccess's transaction or, outside
   * one, as a transaction of its own. With `named` (a text of which a process makes few
   * variants) and prepared statements enabled, it runs as a named statement on the transaction's
   * connection (or the statement pool's), parsed once per connection and planned
   * by PostgreSQL's own choice: an ingest's INSERT is one text per row count and set of parts,
   * which unnamed was parsed and planned on every write (~0.65 ms of the database's ~3.4 ms a
   * write at 1M, docs/bench-notes/write-path.md). Otherwise unnamed, as TypeORM runs it.
   */
  private async write(sql: string, parameters: unknown[], named: boolean): Promise<void> {
    if (!named || this.options.statementPool === null) {
      await this.manager.query(sql, parameters);
      return;
    }
    // run() puts a named statement on the transaction's connection when there is one, else on the statement pool's.
    await this.run({ name: shapeName(sql), text: sql, parameters: [] }, parameters);
  }

  /**
   * Which of `ids` are ids of this user's memories, live or not (import's conflict check; one
   * user, so one shard under Citus).
   */
  async existingMemoryIds(userId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows: { id: string }[] = await this.manager.query('SELECT id FROM memories WHERE user_id = $1 AND id = ANY(CAST($2 AS uuid[]))', [
      userId,
      [...new Set(ids)],
    ]);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * New rows (and their `created` versions) unless their id is taken (ON CONFLICT DO NOTHING:
   * an id of another user's memory, which the caller cannot see). Only inside `transaction(fn)`.
   * Returns the ids inserted; the caller records their audit events in the same transaction.
   */
  async insertMemoriesIfAbsent(rows: NewMemory[], actor: Actor): Promise<Set<string>> {
    if (rows.length === 0) return new Set();
    if (!this.manager.queryRunner) throw new Error('insertMemoriesIfAbsent: only inside transaction(fn)');
    await this.holdSubjects(rows.map((row) => row.userId));
    const [insertSql, insertParameters] = this.manager
      .createQueryBuilder()
      .insert()
      .into(MemoryEntity)
      .values(rows.map((row) => ({ ...row, version: 1 })) as QueryDeepPartialEntity<MemoryEntity>[])
      .orIgnore()
      .updateEntity(false)
      .returning('user_id, id, content, metadata, visibility, expires_at, workspace_id, agent_id')
      .getQueryAndParameters();
    const keyParameter = insertParameters.length + 1;
    const inserted: { id: string }[] = await this.manager.query(
      `WITH stored AS (${insertSql}), versioned AS (
         INSERT INTO memory_versions (user_id, memory_id, version, change, content, metadata, visibility, expires_at, workspace_id, agent_id, key_id)
         SELECT s.user_id, s.id, 1, 'created', s.content, s.metadata, s.visibility, s.expires_at, s.workspace_id, s.agent_id, CAST($${keyParameter} AS uuid)
           FROM stored s)
       SELECT id FROM stored`,
      [...insertParameters, actor.keyId],
    );
    return new Set(inserted.map((row) => row.id));
  }

  /**
   * Append audit events with this MemoryAccess's manager: inside `transaction(fn)`, in the same
   * transaction as the change they record (database/audit/audit-log.ts), with the webhook
   * events they make in the same statement (webhook-outbox.ts).
   */
  async audit(actor: Actor, ...events: AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    const audit = auditInsert(actor, events, 0);
    const outbox = outboxCtes(events, 'memories', audit.parameters.length);
    if (outbox.ctes.length === 0) return appendAuditEvents(this.manager, actor, events);
    await this.manager.query(`WITH audited AS (${audit.sql}), ${outbox.ctes.join(', ')} SELECT 1`, [
      ...audit.parameters,
      ...outbox.parameters,
    ]);
  }

  /**
   * The `lesson.matched` webhook event of a search that failed closed on a critical lesson:
   * lesson ids and severity, to the subscribers in the search's scope. No change to commit
   * with, so it is one statement of its own.
   */
  async lessonMatched(scope: MemoryScope, lessonIds: readonly string[], highestSeverity: string): Promise<void> {
    const workspace = scope.kind === 'workspace' ? [scope.workspaceId, scope.agentId] : [null, null];
    await this.manager.query(LESSON_MATCHED_SQL, [randomUUID(), scope.userId, ...workspace, JSON.stringify(lessonIds), highestSeverity]);
  }

  /**
   * An ingest call that stored no memory (every fact a duplicate, refused or none): its episode
   * alone, in one statement that is its own transaction outside `transaction(fn)`. The subject
   * lock is taken inside it, by the row source the INSERT reads (HELD_EPISODE_INSERT), so it is
   * held before the row is written and until the statement commits: what BEGIN, holdSubjects and
   * COMMIT did in four round trips (docs/bench-notes/write-path.md).
   */
  async insertEpisode(episode: EpisodeEntity): Promise<void> {
    await this.write(HELD_EPISODE_INSERT, [[episode.userId], ...episodeValues(episode)], true);
  }

  /**
   * The users' subject locks, shared, until this transaction ends (erasure.ts, SUBJECT_LOCK_KEY):
   * taken by the statements that create a user's rows (here, and lessons, trust levels and API
   * keys in their own transactions), so that an erasure of that user waits
   * for them to commit (and erases what they wrote), and they wait for an erasure under way.
   */
  async holdSubjects(userIds: readonly string[]): Promise<void> {
    if (!this.manager.queryRunner) throw new Error('holdSubjects: only inside transaction(fn)');
    await this.write(HELD_SUBJECTS('$1'), [lockOrder(userIds)], true);
  }

  // ---- erasure (CONTRACT section 13) ----

  /**
   * Erases a subject for good in one transaction (erasure.ts): deletes every trace, skeletons its
   * audit events, drops its tenant graphs, counts the residue again, and rolls everything back
   * when any is left (ErasureResidueError). The `subject.erased` event names no one.
   */
  async erase(subject: ErasureSubject, actor: Actor): Promise<ErasureReceipt & { erasedAt: Date }> {
    return this.transaction(async (tx) => {
      const receipt = await eraseSubject(tx.manager, subject);
      const left = Object.entries(receipt.residue).filter(([, n]) => n > 0);
      if (left.length > 0) throw new ErasureResidueError(receipt);
      const [{ now }]: { now: Date }[] = await tx.manager.query('SELECT now() AS now');
      await tx.audit(actor, {
        action: 'subject.erased',
        userId: null,
        targetId: null,
        detail: { subject: subject.kind, ...receipt.erased },
      });
      return { ...receipt, erasedAt: new Date(now) };
    });
  }

  // ---- grants: every statement is gated by the `owner` predicate on the memory ----

  /** The owner's memory, expired or not (its owner still manages it until it is purged). */
  private ownedMemory(scope: WorkspaceScope, memoryId: string): SelectQueryBuilder<MemoryEntity> {
    return this.scoped(scope, 'owner', 'm', { kind: 'current-with-expired' }).andWhere('m.id = :memoryId', { memoryId });
  }

  /** Whether the caller owns a live memory with that id, and its visibility. */
  async ownedVisibility(scope: WorkspaceScope, memoryId: string): Promise<{ visibility: string | null } | null> {
    const row = await this.ownedMemory(scope, memoryId).select('m.visibility', 'visibility').getRawOne<{ visibility: string | null }>();
    return row ?? null;
  }

  /**
   * Insert a grant on an owned restricted memory; its created_at when new, null otherwise. The
   * memory row is read FOR SHARE: a visibility change in flight (an UPDATE holding the row, then
   * dropping the grants in its transaction) makes this statement wait and re-check
   * `visibility = 'restricted'` on the committed row, and a change that comes after waits for
   * this grant to commit and then drops it. Without the lock the grant read the old row and
   * survived the change (issue 20, finding 9).
   */
  async insertGrant(scope: WorkspaceScope, memoryId: string, granteeAgentId: string): Promise<Date | null> {
    const [selectSql, params] = this.ownedMemory(scope, memoryId)
      .select('m.id', 'memory_id')
      .addSelect('m.user_id', 'user_id')
      .addSelect('m.workspace_id', 'workspace_id')
      .addSelect('CAST(:grantee AS uuid)', 'grantee_agent_id')
      .addSelect('m.agent_id', 'granted_by_agent_id')
      .andWhere("m.visibility = 'restricted'")
      .setParameter('grantee', granteeAgentId)
      .getQueryAndParameters();
    const inserted: { created_at: Date }[] = await this.manager.query(
      `INSERT INTO memory_visibility_grants (memory_id, user_id, workspace_id, grantee_agent_id, granted_by_agent_id)
       ${selectSql} FOR SHARE OF m
       ON CONFLICT (memory_id, grantee_agent_id) DO NOTHING
       RETURNING created_at`,
      params,
    );
    return inserted[0]?.created_at ?? null;
  }

  /** When the grant was made, if the caller owns the memory and the grant exists. */
  async grantCreatedAt(scope: WorkspaceScope, memoryId: string, granteeAgentId: string): Promise<Date | null> {
    const row = await this.ownedMemory(scope, memoryId)
      .select('g.created_at', 'created_at')
      .innerJoin('memory_visibility_grants', 'g', 'g.memory_id = m.id AND g.user_id = m.user_id AND g.grantee_agent_id = :grantee', {
        grantee: granteeAgentId,
      })
      .getRawOne<{ created_at: Date }>();
    return row?.created_at ?? null;
  }

  /** Grants on an owned memory, oldest first; null when the caller does not own it. */
  async listGrants(scope: WorkspaceScope, memoryId: string): Promise<GrantRow[] | null> {
    if (!(await this.ownedVisibility(scope, memoryId))) return null;
    return this.manager.query(
      `SELECT grantee_agent_id, created_at FROM memory_visibility_grants
        WHERE user_id = $1 AND workspace_id = $2 AND memory_id = $3 ORDER BY created_at, grantee_agent_id`,
      [scope.userId, scope.workspaceId, memoryId],
    );
  }

  /** Delete one grant on an owned memory; the number of grants removed (0 or 1). */
  async deleteGrant(scope: WorkspaceScope, memoryId: string, granteeAgentId: string): Promise<number> {
    const [ownedSql, params] = this.ownedMemory(scope, memoryId).select('m.id').getQueryAndParameters();
    // A CTE so the result is a plain row: TypeORM returns [rows, count] for a bare DELETE.
    // g.user_id pins the DELETE to the caller's shard under Citus (docs/scaling.md).
    const [{ n }]: { n: number }[] = await this.manager.query(
      `WITH deleted AS (
         DELETE FROM memory_visibility_grants g
          WHERE g.user_id = $${params.length + 2} AND g.memory_id IN (${ownedSql}) AND g.grantee_agent_id = $${params.length + 1}
          RETURNING 1)
       SELECT count(*)::int AS n FROM deleted`,
      [...params, granteeAgentId, scope.userId],
    );
    return n;
  }

  /**
   * Drop every grant of a memory the caller owns (used when it leaves `restricted`, inside
   * the transaction that changed its visibility).
   */
  async dropGrants(scope: WorkspaceScope, memoryId: string): Promise<void> {
    const [ownedSql, params] = this.ownedMemory(scope, memoryId).select('m.id').getQueryAndParameters();
    await this.manager.query(`DELETE FROM memory_visibility_grants WHERE user_id = $${params.length + 1} AND memory_id IN (${ownedSql})`, [
      ...params,
      scope.userId,
    ]);
  }

  // ---- lessons: user-scoped ----

  /** SELECT over one user's lessons (`alias.user_id` bound), as a ScopedSelect. */
  lessons(userId: string, alias = 'l'): ScopedSelect<LessonEntity> {
    const qb = this.manager.getRepository(LessonEntity).createQueryBuilder(alias).andWhere(`${alias}.user_id = :vis_userId`);
    return scopedSelect(qb, { vis_userId: userId }, alias, {});
  }

  /**
   * Hand-written SQL on the lessons table for one user: `$1` is `userId`. The statement must
   * touch no table but `lessons`, and every lessons row it reads or changes must be pinned to
   * `user_id = $1` (lesson-statement.ts), checked before it is sent, so a statement that
   * forgets the tenant key or reaches another table fails at once.
   */
  async userQuery<T>(userId: string, sql: string, params: unknown[] = []): Promise<T[]> {
    checkLessonStatement(sql);
    return this.manager.query(sql, [userId, ...params]);
  }
}

function sameSettings(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => b[name] === a[name]);
}

/** The joins a memories ScopedSelect allows: tables keyed by the same user as the row. */
const MEMORY_JOINS = {
  memory_access_counts: (alias: string, m: string) => `${alias}.user_id = ${m}.user_id AND ${alias}.memory_id = ${m}.id`,
  episodes: (alias: string, m: string) => `${alias}.user_id = ${m}.user_id AND ${alias}.id = ${m}.episode_id`,
} as const;

/** Search filters (those present) as conditions over `alias`, with their named parameters. */
function applySearchFilters(qb: SelectQueryBuilder<MemoryEntity>, alias: string, filters: SearchFilters): void {
  const values = searchFilterValues(filters);
  if (values.f_sourceSite !== undefined) qb.andWhere(`${alias}.source_site = :f_sourceSite`);
  if (values.f_namespaces !== undefined) qb.andWhere(`${alias}.namespace = ANY(CAST(:f_namespaces AS text[]))`);
}

/** The agent a change is made by: the caller's agent in a workspace, none in user scope. */
function changingAgent(scope: MemoryScope): string | null {
  return scope.kind === 'workspace' ? scope.agentId : null;
}

/** An episode's eight values as typed expressions of the placeholders `at` (episodeValues' order), for EPISODE_INSERT's two forms. */
const episodeRow = (at: readonly string[]): string =>
  `CAST(${at[0]} AS uuid), CAST(${at[1]} AS text), CAST(${at[2]} AS uuid), CAST(${at[3]} AS uuid), CAST(${at[4]} AS text), ` +
  `CAST(${at[5]} AS text), CAST(${at[6]} AS text), CAST(${at[7]} AS timestamptz)`;

/**
 * An episode's INSERT, its values at the given placeholders; with `from`, read from that
 * relation (one row) instead of VALUES, so they are formed only once it has produced its row.
 */
const EPISODE_INSERT = (at: readonly string[], from?: string): string =>
  `INSERT INTO episodes (id, user_id, workspace_id, agent_id, source_site, source_url, content, created_at)
   ${from === undefined ? `VALUES (${episodeRow(at)})` : `SELECT ${episodeRow(at)} FROM ${from}`}`;

/** The shared subject lock of user `u` (HELD_SUBJECTS). */
const SHARED_SUBJECT_LOCK = `pg_advisory_xact_lock_shared(${SUBJECT_LOCK_KEY('u')})`;

/** The users whose subject locks a statement takes, each once and in one order for every writer (no deadlock between two). */
const lockOrder = (users: readonly string[]): string[] => [...new Set(users)].sort();

/**
 * The shared subject locks of the users in the text array `users` (a placeholder), as a one-row
 * relation: the aggregate returns only once every lock is held (a CTE calling a volatile
 * function is computed once, before anything reads its row).
 */
const HELD_SUBJECTS = (users: string): string => `SELECT count(${SHARED_SUBJECT_LOCK}) AS locks FROM unnest(CAST(${users} AS text[])) AS u`;

/** A new row's first version, read from `held`: the row cannot be formed before the locks are held. */
const HELD_FIRST_VERSION = '(SELECT CAST(1 AS integer) FROM held)';

/**
 * The outbox's foreign key to its subscription: the one a single-statement write can break
 * when an erasure removed a subscription while the write waited for the subject lock.
 */
const STALE_SUBSCRIPTION_CONSTRAINT = 'webhook_outbox_subscription_id_fkey';

/**
 * The episode alone, with the subject lock of its user ($1, an array of one) taken by the row
 * source: the aggregate returns only once every lock is held, and the INSERT has no row to write
 * before that. A data-modifying CTE beside the INSERT would give no such order.
 */
const HELD_EPISODE_INSERT = `WITH held AS (${HELD_SUBJECTS('$1')})
   ${EPISODE_INSERT(['$2', '$3', '$4', '$5', '$6', '$7', '$8', '$9'], 'held')}`;

function episodeValues(episode: EpisodeEntity): unknown[] {
  return [
    episode.id,
    episode.userId,
    episode.workspaceId,
    episode.agentId,
    episode.sourceSite,
    episode.sourceUrl,
    episode.content,
    episode.createdAt,
  ];
}
