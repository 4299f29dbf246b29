import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { parseMemoryScope } from '../../src/common/scope/parse-memory-scope';
import { hnswSessionSettings } from '../../src/database/access/hnsw-settings';
import { MemoryAccess, type MemoryAccessOptions } from '../../src/database/access/memory-access';
import { TenantGraphMaintainer } from '../../src/database/maintenance/tenant-graph-maintainer';
import {
  existingTenantGraphs,
  importedLately,
  reconcileTenantGraphs,
  TENANT_GRAPH_EF_CONSTRUCTION,
  tenantGraphName,
  type TenantScope,
} from '../../src/database/maintenance/tenant-graphs';
import { toVectorLiteral } from '../../src/database/vector';
import { EmbeddingService } from '../../src/embeddings/embedding.service';
import { VectorSearch } from '../../src/retrieval/vector-search';
import { newId, newUser } from '../support/ids';
import { withLoggedQueries, type LoggedQuery } from '../support/logged-queries';
import { createSecondInstance, createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

/**
 * Tenant graphs (src/database/tenant-graphs.ts): a scope with at least TENANT_GRAPH_MIN_ROWS
 * live memories gets a partial HNSW index of its own, built in the background after a search
 * finds the scope above the exact-search limit; the HNSW plan then walks it, with visibility
 * still decided by the statement's WHERE. Small numbers here: exact limit 10, graphs from 30.
 */
const WORDS = [
  'kestrel',
  'granite',
  'harbor',
  'lantern',
  'orchid',
  'copper',
  'glacier',
  'meadow',
  'falcon',
  'canyon',
  'saffron',
  'violin',
  'tundra',
  'beacon',
  'walnut',
  'quartz',
  'lagoon',
  'thistle',
  'ember',
  'marble',
  'juniper',
  'cobalt',
  'prairie',
  'sparrow',
];
const content = (seed: number, tag: string): string => {
  const pick = (n: number) => WORDS[(seed * 7 + n * 13 + (seed >> 2)) % WORDS.length];
  return `${tag} note ${seed}: the ${pick(1)} near the ${pick(2)} and ${pick(3)} by the ${pick(4)} ${seed * 37}`;
};

if (!isPostgresRun()) {
  describe('tenant graphs on the embedded database', () => {
    it('are off: the maintainer does nothing and large scopes still search through the HNSW plan', async () => {
      const t = await createTestApp({ SEARCH_EXACT_SCOPE_LIMIT: '3', TENANT_GRAPH_MIN_ROWS: '4' });
      try {
        expect(t.app.get(TenantGraphMaintainer).enabled).toBe(false);
        const scope = { user_id: newUser() };
        for (let i = 0; i < 6; i++) {
          const res = await t
            .http()
            .post('/v1/memories/ingest/quick')
            .send({ ...scope, source_site: 'tenant-graph-tests', skip_extraction: true, conversation: content(i, 'embedded') });
          expect(res.body.memories_stored).toBe(1);
        }
        const res = await t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...scope, query: 'kestrel granite', limit: 100 });
        expect(res.status).toBe(200);
        expect(res.body.count).toBe(6);
        expect(await t.app.get(TenantGraphMaintainer).pass('test')).toBeNull();
        // without tenant graphs the embedded database keeps the partition's graph (migration 1763700500000)
        const [{ n }] = await t.dataSource.query("SELECT count(*) AS n FROM pg_indexes WHERE indexname = 'memories_embedding_hnsw_idx'");
        expect(Number(n)).toBe(1);
      } finally {
        await t.close();
      }
    });
  });
} else {
  describe('tenant graphs (PostgreSQL)', () => {
    let t: TestApp;
    let direct: Client;
    const userScope = { user_id: newUser() };
    const ws = { user_id: userScope.user_id, workspace_id: newId() };
    const agentX = newId();
    const agentY = newId();
    /** X's agent_only rows: agent Y must never get them, graph or not. */
    const xPrivate: string[] = [];

    const remember = async (scope: Record<string, unknown>, text: string, visibility?: string): Promise<string> => {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({
          ...scope,
          ...(visibility ? { visibility } : {}),
          source_site: 'tenant-graph-tests',
          skip_extraction: true,
          conversation: text,
        });
      if (res.body.memories_stored !== 1) throw new Error(`not stored: ${JSON.stringify(res.body)}`);
      return res.body.stored_memory_ids[0] as string;
    };
    const graphs = async () => existingTenantGraphs(direct);
    const idxScans = async (name: string): Promise<number> => {
      const { rows } = await direct.query<{ n: string }>('SELECT idx_scan AS n FROM pg_stat_user_indexes WHERE indexrelname = $1', [name]);
      return Number(rows[0]?.n ?? 0);
    };
    const eventually = async (check: () => Promise<boolean>, what: string, ms = 30_000): Promise<void> => {
      const until = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const exactIds = async (fields: Record<string, unknown>, query: string): Promise<string[]> => {
      const vector = await t.app.get(EmbeddingService).embedQuery(query);
      const rows = await t.app.get(VectorSearch).exactNearest(parseMemoryScope(fields), toVectorLiteral(vector), 100);
      return (rows ?? []).map((r) => r.memory.id).sort();
    };

    beforeAll(async () => {
      // No periodic pass during the suite: the graphs are built by what the tests do (a search
      // that finds a large scope, or a pass they run), never by a timer racing the seeding.
      t = await createTestApp({ SEARCH_EXACT_SCOPE_LIMIT: '10', TENANT_GRAPH_MIN_ROWS: '30', TENANT_GRAPH_FIRST_PASS_S: '86400' });
      direct = new Client({ connectionString: t.env.DATABASE_DIRECT_URL ?? t.env.DATABASE_URL });
      await direct.connect();
      // Eight writes at a time: the maintainer's first pass (15 s after boot) must find these
      // scopes still without a graph, so that the first test sees a search build it; one write
      // after another took longer than that on a loaded machine.
      const seed = async (n: number, write: (i: number) => Promise<string>): Promise<string[]> => {
        const ids: string[] = [];
        for (let i = 0; i < n; i += 8) ids.push(...(await Promise.all(Array.from({ length: Math.min(8, n - i) }, (_, j) => write(i + j)))));
        return ids;
      };
      await seed(40, (i) => remember(userScope, content(i, 'personal')));
      await seed(20, (i) => remember({ ...ws, agent_id: agentX }, content(100 + i, 'shared'), 'workspace'));
      xPrivate.push(...(await seed(12, (i) => remember({ ...ws, agent_id: agentX }, content(200 + i, 'private'), 'agent_only'))));
      await seed(10, (i) => remember({ ...ws, agent_id: agentY }, content(300 + i, 'own'), 'workspace'));
    }, 120_000);
    afterAll(async () => {
      await direct?.end();
      await t?.close();
    });

    it('a search of a large scope builds its graph in the background; the next searches walk it and answer as the exact plan does', async () => {
      const name = tenantGraphName({ userId: userScope.user_id, workspaceId: null });
      expect((await graphs()).has(name)).toBe(false);
      const first = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...userScope, query: 'kestrel harbor', limit: 100 });
      expect(first.status).toBe(200);
      expect(first.body.count).toBe(40);

      await eventually(async () => (await graphs()).get(name)?.valid === true, 'the user scope graph');
      const { rows } = await direct.query<{ def: string }>(
        'SELECT pg_get_indexdef(indexrelid) AS def FROM pg_index WHERE indexrelid = $1::regclass',
        [name],
      );
      expect(rows[0].def).toContain('USING hnsw (embedding vector_cosine_ops)');
      // Built with the larger candidate list (tenant-graphs.ts), not pgvector's default of 64.
      expect(rows[0].def).toContain(`WITH (ef_construction='${TENANT_GRAPH_EF_CONSTRUCTION}')`);
      expect(rows[0].def).toContain(`user_id = '${userScope.user_id}'`);
      expect(rows[0].def).toContain('workspace_id IS NULL');

      const before = await idxScans(name);
      const second = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...userScope, query: 'kestrel harbor', limit: 100 });
      expect(second.body.memories.map((m: { id: string }) => m.id).sort()).toEqual(await exactIds(userScope, 'kestrel harbor'));
      await eventually(async () => (await idxScans(name)) > before, 'a scan of the user scope graph');
    }, 60_000);

    /** The ef_search each short transaction set: set_config($1, $2, true), ... over (name, value) pairs. */
    const efSet = (logged: LoggedQuery[]): unknown[] =>
      logged.filter((q) => /set_config\(/.test(q.sql)).map((q) => q.parameters[q.parameters.indexOf('hnsw.ef_search') + 1]);

    it('a large-scope search is one statement on a direct connection (the indexed pool has the HNSW settings), a short transaction behind a pooler', async () => {
      const { result: res, logged } = await withLoggedQueries(t.dataSource, () =>
        t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...userScope, query: 'lantern orchid', limit: 5 }),
      );
      expect(res.body.count).toBe(5);
      const search = logged.filter((q) => /^\s*WITH\b/.test(q.sql));
      expect(search).toHaveLength(1);
      // the scope has its own graph, so the over-fetch is k + 30 (35 candidates for 5), not k + 90
      expect(t.app.get(TenantGraphMaintainer).hasGraph({ userId: userScope.user_id, workspaceId: null })).toBe(true);
      expect(search[0].parameters).toContain(35);
      const direct = !t.env.DATABASE_DIRECT_URL && t.env.DATABASE_PREPARED_STATEMENTS;
      expect(efSet(logged)).toEqual(direct ? [] : ['200']);
    });

    it("/search's vector side reads the index candidates search/fast would for its limit, at least k, not an over-fetch for an exact top k", async () => {
      const { result: res, logged } = await withLoggedQueries(t.dataSource, () =>
        t
          .http()
          .post('/v1/memories/search')
          .send({ ...userScope, query: 'lantern orchid', limit: 5 }),
      );
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(5);
      // The scope is known large (the tests above searched it), so its one vector statement is the HNSW plan's.
      const vector = logged.filter((q) => /^\s*WITH\b/.test(q.sql) && q.sql.includes('<=>') && !q.sql.includes('memory_postings'));
      expect(vector).toHaveLength(1);
      expect(t.app.get(TenantGraphMaintainer).hasGraph({ userId: userScope.user_id, workspaceId: null })).toBe(true);
      // k = 40 candidates for fusion (4 x limit, at least 40); search/fast's over-fetch for 5 rows
      // on the scope's own graph is 35, so 40 are read, where an exact top 40 would take 80.
      expect(vector[0].parameters.slice(-2)).toEqual([40, 40]);
    });

    it("/search's vector side walks the graph at the fusion ef_search (80), search/fast at the exact one (200)", async () => {
      // Direct connections: each ef has a pool of sessions set up with it; count which pool
      // serves each route. Behind a pooler: the short transaction sets the value it runs with.
      const pools = (t.app.get(MemoryAccess) as unknown as { options: MemoryAccessOptions }).options.indexedPools ?? [];
      const acquired = new Map<string, number>();
      const listeners = pools.map((indexed) => {
        const ef = indexed.settings['hnsw.ef_search'];
        const listener = (): void => void acquired.set(ef, (acquired.get(ef) ?? 0) + 1);
        indexed.pool.on('acquire', listener);
        return () => indexed.pool.off('acquire', listener);
      });
      try {
        const hybrid = await withLoggedQueries(t.dataSource, () =>
          t
            .http()
            .post('/v1/memories/search')
            .send({ ...userScope, query: 'lantern orchid', limit: 5 }),
        );
        expect(hybrid.result.body.count).toBe(5);
        const afterHybrid = new Map(acquired);
        const fast = await withLoggedQueries(t.dataSource, () =>
          t
            .http()
            .post('/v1/memories/search/fast')
            .send({ ...userScope, query: 'lantern orchid', limit: 5 }),
        );
        expect(fast.result.body.count).toBe(5);
        const direct = !t.env.DATABASE_DIRECT_URL && t.env.DATABASE_PREPARED_STATEMENTS;
        if (direct) {
          expect(pools.map((indexed) => indexed.settings['hnsw.ef_search']).sort()).toEqual(['200', '80']);
          expect(afterHybrid).toEqual(new Map([['80', 1]]));
          expect(acquired).toEqual(
            new Map([
              ['80', 1],
              ['200', 1],
            ]),
          );
        } else {
          expect(efSet(hybrid.logged)).toEqual(['80']);
          expect(efSet(fast.logged)).toEqual(['200']);
        }
      } finally {
        for (const off of listeners) off();
      }
    });

    it("a workspace graph: agent Y gets exactly what the exact plan gives it, never X's agent_only rows", async () => {
      const asY = { ...ws, agent_id: agentY };
      const name = tenantGraphName({ userId: ws.user_id, workspaceId: ws.workspace_id });
      await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...asY, query: 'granite meadow', limit: 100 });
      await eventually(async () => (await graphs()).get(name)?.valid === true, 'the workspace graph');

      const before = await idxScans(name);
      for (const query of ['granite meadow', 'private note', 'copper falcon']) {
        const res = await t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...asY, query, limit: 100 });
        const ids: string[] = res.body.memories.map((m: { id: string }) => m.id);
        expect(ids).toHaveLength(30);
        expect(ids.filter((id) => xPrivate.includes(id))).toEqual([]);
        expect([...ids].sort()).toEqual(await exactIds(asY, query));
      }
      await eventually(async () => (await idxScans(name)) > before, 'a scan of the workspace graph');
      // X sees its own private rows through the same graph.
      const asX = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...ws, agent_id: agentX, query: 'private note', limit: 100 });
      expect(asX.body.memories.map((m: { id: string }) => m.id)).toEqual(expect.arrayContaining(xPrivate));
    }, 60_000);

    it('as_of on a large scope walks its graph for the live rows and still finds the rows deleted since', async () => {
      const name = tenantGraphName({ userId: userScope.user_id, workspaceId: null });
      await eventually(async () => (await graphs()).get(name)?.valid === true, 'the user scope graph');
      const gone = [await remember(userScope, content(600, 'erased later')), await remember(userScope, content(601, 'erased later'))];
      await new Promise((resolve) => setTimeout(resolve, 20));
      const asOf = new Date();
      await new Promise((resolve) => setTimeout(resolve, 20));
      for (const id of gone) expect((await t.http().delete(`/v1/memories/${id}`).query(userScope)).status).toBe(200);
      const query = 'kestrel harbor';
      const vector = await t.app.get(EmbeddingService).embedQuery(query);
      const exactThen = async (k: number) =>
        ((await t.app.get(VectorSearch).exactNearest(parseMemoryScope(userScope), toVectorLiteral(vector), k, { asOf })) ?? []).map(
          (r) => r.memory.id,
        );

      // every row valid then: the 40 live ones and the 2 deleted since
      const all = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...userScope, query, limit: 100, as_of: asOf.toISOString() });
      expect(all.status).toBe(200);
      const ids: string[] = all.body.memories.map((m: { id: string }) => m.id);
      expect(ids).toHaveLength(42);
      expect(ids).toEqual(expect.arrayContaining(gone));
      expect([...ids].sort()).toEqual([...(await exactThen(100))].sort());

      // a top 10 the HNSW plan answers alone, in one statement whose plan walks the scope's graph
      const { result: res, logged } = await withLoggedQueries(t.dataSource, () =>
        t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...userScope, query, limit: 10, as_of: asOf.toISOString() }),
      );
      const top: string[] = res.body.memories.map((m: { id: string }) => m.id);
      expect(top).toEqual(await exactThen(10));
      const statements = logged.filter((q) => /^\s*WITH\b/.test(q.sql));
      expect(statements).toHaveLength(1);
      await direct.query('BEGIN');
      try {
        for (const [setting, value] of Object.entries(hnswSessionSettings(40, 10))) {
          await direct.query('SELECT set_config($1, $2, true)', [setting, value]);
        }
        const { rows } = await direct.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${statements[0].sql}`, statements[0].parameters);
        const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
        expect(plan).toContain(`Index Scan using ${name}`);
      } finally {
        await direct.query('ROLLBACK');
      }

      const now = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...userScope, query, limit: 100 });
      expect(now.body.count).toBe(40);
    }, 60_000);

    it('an instance that does not reconcile (TENANT_GRAPH_INTERVAL_S=0) still knows the graphs at boot', async () => {
      const second = await createSecondInstance(t, {
        TENANT_GRAPH_MIN_ROWS: '30',
        TENANT_GRAPH_INTERVAL_S: '0',
        SEARCH_EXACT_SCOPE_LIMIT: '10',
      });
      try {
        const maintainer = second.app.get(TenantGraphMaintainer);
        expect(maintainer.enabled).toBe(false);
        await eventually(
          async () => maintainer.hasGraph({ userId: userScope.user_id, workspaceId: null }),
          'the graph list, read at boot',
          10_000,
        );
        expect(maintainer.hasGraph({ userId: newUser(), workspaceId: null })).toBe(false);
      } finally {
        await second.close();
      }
    });

    it('a scope under the threshold gets no graph; one that shrinks under half of it loses its graph', async () => {
      const small = { user_id: newUser() };
      for (let i = 0; i < 12; i++) await remember(small, content(400 + i, 'small'));
      expect(
        (
          await t
            .http()
            .post('/v1/memories/search/fast')
            .send({ ...small, query: 'kestrel', limit: 5 })
        ).body.count,
      ).toBe(5);
      await t.app.get(TenantGraphMaintainer).pass('test');
      expect((await graphs()).has(tenantGraphName({ userId: small.user_id, workspaceId: null }))).toBe(false);

      const shrinking = { user_id: newUser() };
      const ids: string[] = [];
      for (let i = 0; i < 31; i++) ids.push(await remember(shrinking, content(500 + i, 'shrinking')));
      const scope: TenantScope = { userId: shrinking.user_id, workspaceId: null };
      await t.app.get(TenantGraphMaintainer).pass('test');
      expect((await graphs()).get(tenantGraphName(scope))?.valid).toBe(true);
      // 31 -> 16 live rows: still at least half of 30, kept (no rebuild churn at the line)
      for (const id of ids.slice(0, 15)) expect((await t.http().delete(`/v1/memories/${id}`).query(shrinking)).status).toBe(200);
      await t.app.get(TenantGraphMaintainer).pass('test');
      expect((await graphs()).has(tenantGraphName(scope))).toBe(true);
      // 16 -> 14: dropped
      for (const id of ids.slice(15, 17)) expect((await t.http().delete(`/v1/memories/${id}`).query(shrinking)).status).toBe(200);
      await t.app.get(TenantGraphMaintainer).pass('test');
      expect((await graphs()).has(tenantGraphName(scope))).toBe(false);
      // and its searches still answer, through the partition's graph
      const res = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...shrinking, query: 'kestrel', limit: 100 });
      expect(res.body.count).toBe(14);
    }, 90_000);

    it('an index left invalid by a failed concurrent build is dropped and rebuilt', async () => {
      const name = tenantGraphName({ userId: userScope.user_id, workspaceId: null });
      await direct.query('UPDATE pg_index SET indisvalid = false WHERE indexrelid = $1::regclass', [name]);
      expect((await graphs()).get(name)?.valid).toBe(false);
      const result = await reconcileTenantGraphs(direct, { minRows: 30 });
      expect(result.dropped).toContain(name);
      expect(result.built).toContain(name);
      expect((await graphs()).get(name)?.valid).toBe(true);
    }, 60_000);

    it('one instance reconciles at a time: another pass waits its turn (ran: false) while the lock is held', async () => {
      const other = new Client({ connectionString: t.env.DATABASE_DIRECT_URL ?? t.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query('SELECT pg_advisory_lock(7163700160)');
        expect(await reconcileTenantGraphs(direct, { minRows: 30 })).toMatchObject({ ran: false, built: [], dropped: [] });
        await other.query('SELECT pg_advisory_unlock(7163700160)');
        expect((await reconcileTenantGraphs(direct, { minRows: 30 })).ran).toBe(true);
      } finally {
        await other.end();
      }
    });

    it("an import defers its scope's graph while it writes; the pass after it builds the graph over the imported rows", async () => {
      // A second instance whose imports are quiet after 2 s (TENANT_GRAPH_IMPORT_QUIET_S), so that its pass after the import comes within the test.
      const second = await createSecondInstance(t, {
        TENANT_GRAPH_MIN_ROWS: '30',
        TENANT_GRAPH_FIRST_PASS_S: '86400',
        TENANT_GRAPH_IMPORT_QUIET_S: '2',
        SEARCH_EXACT_SCOPE_LIMIT: '10',
      });
      try {
        const imported = { user_id: newUser() };
        const name = tenantGraphName({ userId: imported.user_id, workspaceId: null });
        const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ id: randomUUID(), content: content(700 + i, 'imported') }));
        const res = await second
          .http()
          .post('/v1/memories/import')
          .query(imported)
          .set('Content-Type', 'application/x-ndjson')
          .send(`${lines.join('\n')}\n`);
        expect(res.body).toMatchObject({ imported: 40, failed: 0 });

        // A pass within the quiet time (here by another instance: the audit trail tells it) builds nothing for the scope.
        const during = await reconcileTenantGraphs(direct, { minRows: 30, importQuietS: 60 });
        expect(during.deferred).toEqual([name]);
        expect(during.built).not.toContain(name);
        expect((await graphs()).has(name)).toBe(false);
        // Without the deferral the same pass would build it: the scope is over the threshold.
        expect(await importedLately(direct, { userId: imported.user_id, workspaceId: null }, 60)).toBe(true);
        expect(await importedLately(direct, { userId: imported.user_id, workspaceId: newId() }, 60)).toBe(false);

        // The importing instance's pass after the import (2 s quiet + 5 s) builds it, over every imported row.
        await eventually(async () => (await graphs()).get(name)?.valid === true, 'the graph built after the import', 30_000);
        const { rows } = await direct.query<{ n: string }>(
          `SELECT count(*) AS n FROM memories WHERE user_id = $1 AND embedding IS NOT NULL`,
          [imported.user_id],
        );
        expect(Number(rows[0].n)).toBe(40);
        const search = await t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...imported, query: 'kestrel harbor', limit: 100 });
        expect(search.body.count).toBe(40);
        expect(search.body.memories.map((m: { id: string }) => m.id).sort()).toEqual(await exactIds(imported, 'kestrel harbor'));
      } finally {
        await second.close();
      }
    }, 90_000);

    it('TENANT_GRAPH_MIN_ROWS=0 drops them all; searches go on exactly, and an instance started so says it at boot', async () => {
      const result = await reconcileTenantGraphs(direct, { minRows: 0 });
      expect(result.dropped.length).toBeGreaterThanOrEqual(2);
      expect((await graphs()).size).toBe(0);
      const asY = { ...ws, agent_id: agentY };
      for (const limit of [100, 7]) {
        const res = await t
          .http()
          .post('/v1/memories/search/fast')
          .send({ ...asY, query: 'granite meadow', limit });
        expect(res.body.count).toBe(Math.min(limit, 30));
        // exactly the exact plan's nearest rows: no graph is left to approximate them
        const vector = await t.app.get(EmbeddingService).embedQuery('granite meadow');
        const top = ((await t.app.get(VectorSearch).exactNearest(parseMemoryScope(asY), toVectorLiteral(vector), limit)) ?? []).map(
          (r) => r.memory.id,
        );
        expect(res.body.memories.map((m: { id: string }) => m.id).sort()).toEqual(top.sort());
      }
      const second = await createSecondInstance(t, { TENANT_GRAPH_MIN_ROWS: '0', SEARCH_EXACT_SCOPE_LIMIT: '10' });
      try {
        expect(second.app.get(TenantGraphMaintainer).exactScopesWarning()).toMatch(/TENANT_GRAPH_MIN_ROWS=0: .* searched exactly/);
      } finally {
        await second.close();
      }
      // this suite's instance: graphs from 30 rows, exact up to 10, so scopes of 11-29 rows stay exact
      expect(t.app.get(TenantGraphMaintainer).exactScopesWarning()).toMatch(
        /between SEARCH_EXACT_SCOPE_LIMIT \(10\) and TENANT_GRAPH_MIN_ROWS \(30\)/,
      );
      const defaults = await createSecondInstance(t, { TENANT_GRAPH_MIN_ROWS: '3000', SEARCH_EXACT_SCOPE_LIMIT: '3000' });
      try {
        expect(defaults.app.get(TenantGraphMaintainer).exactScopesWarning()).toBeNull();
      } finally {
        await defaults.close();
      }
    });

    it("no partition keeps a graph over all its rows: a write goes into no HNSW index but its scope's own graph", async () => {
      const { rows } = await direct.query<{ n: string }>(
        "SELECT count(*) AS n FROM pg_indexes WHERE tablename LIKE 'memories%' AND indexdef LIKE '%USING hnsw%' AND indexname NOT LIKE 'memories\\_tg\\_%'",
      );
      expect(Number(rows[0].n)).toBe(0);
    });
  });
}
