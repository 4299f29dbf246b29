import type { MemoryScope } from '../../src/common/scope/memory-scope';
import { parseMemoryScope } from '../../src/common/scope/parse-memory-scope';
import { MemoryAccess } from '../../src/database/access/memory-access';
import { toVectorLiteral } from '../../src/database/vector';
import { EmbeddingService } from '../../src/embeddings/embedding.service';
import { VectorSearch, type ScoredRow } from '../../src/retrieval/vector-search';
import { newId, newUser } from '../support/ids';
import { isVisible, type ModelCaller, type ModelRow } from '../support/model-visibility';
import { apiRoutes } from '../support/registered-routes';
import {
  MARKER_NAMES,
  MARKERS,
  seedIsolation,
  SHARED_WORD,
  type AgentName,
  type IsolationWorld,
  type MarkerName,
  type MarkerSpec,
  type Tenant,
  type WorkspaceName,
} from '../support/seed-isolation';
import { createTestApp, type TestApp } from '../support/test-app';

/**
 * Isolation (STYLE rule 10, CONTRACT sections 2-3): every read route, every kind of caller and
 * every agent_scope against one world of VISIBLE/HIDDEN marker rows (test/support/seed-isolation.ts),
 * asserting the EXACT set of markers returned. The expectations are written out by hand below and
 * cross-checked against an independent model of the CONTRACT rules (test/support/model-visibility.ts).
 * Then the writes that target existing rows: ingest de-duplication and delete, each in a tenant
 * of its own so they never disturb the read markers.
 */

interface CallerSpec {
  tenant: Tenant;
  workspace?: WorkspaceName;
  agent?: AgentName;
}

const CALLERS = {
  'user A': { tenant: 'A' },
  'user B': { tenant: 'B' },
  'user C': { tenant: 'C' },
  'A/W1 agent X': { tenant: 'A', workspace: 'W1', agent: 'X' },
  'A/W1 agent Y': { tenant: 'A', workspace: 'W1', agent: 'Y' },
  'A/W1 agent Z': { tenant: 'A', workspace: 'W1', agent: 'Z' },
  'A/W1 outsider agent O': { tenant: 'A', workspace: 'W1', agent: 'O' },
  'A/W2 agent X': { tenant: 'A', workspace: 'W2', agent: 'X' },
  "user C's W1 agent X": { tenant: 'C', workspace: 'W1', agent: 'X' },
} as const satisfies Record<string, CallerSpec>;
type CallerName = keyof typeof CALLERS;

/** agent_scope values: the three keywords, one agent id (Y's) and a list of ids (X's and Z's). */
const AGENT_SCOPES = ['all', 'self', 'others', 'id of Y', 'ids of X,Z'] as const;
type AgentScopeName = (typeof AGENT_SCOPES)[number];

/** The live rows of user A's W1, by owner (for reading the table below). */
const W1_X_SEEN_BY_X = ['W1.X.workspace', 'W1.X.agent_only', 'W1.X.restricted.grantY', 'W1.X.restricted'] as const;
const W1_Y_SEEN_BY_Y = ['W1.Y.workspace', 'W1.Y.agent_only', 'W1.Y.restricted'] as const;
const W1_Z_SEEN_BY_Z = ['W1.Z.workspace', 'W1.Z.agent_only', 'W1.Z.legacy'] as const;

/**
 * Who sees what, by hand. Never listed anywhere: A.user.deleted, W1.X.deleted (soft-deleted) and
 * W1.Y.expired (superseded).
 */
const EXPECTED: [CallerName, AgentScopeName | null, readonly MarkerName[]][] = [
  ['user A', null, ['A.user']],
  ['user B', null, ['B.user']],
  ['user C', null, ['C.user']],

  ['A/W1 agent X', 'all', [...W1_X_SEEN_BY_X, 'W1.Y.workspace', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 agent X', 'self', W1_X_SEEN_BY_X],
  ['A/W1 agent X', 'others', ['W1.Y.workspace', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 agent X', 'id of Y', ['W1.Y.workspace']],
  ['A/W1 agent X', 'ids of X,Z', [...W1_X_SEEN_BY_X, 'W1.Z.workspace', 'W1.Z.legacy']],

  ['A/W1 agent Y', 'all', ['W1.X.workspace', 'W1.X.restricted.grantY', ...W1_Y_SEEN_BY_Y, 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 agent Y', 'self', W1_Y_SEEN_BY_Y],
  ['A/W1 agent Y', 'others', ['W1.X.workspace', 'W1.X.restricted.grantY', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 agent Y', 'id of Y', W1_Y_SEEN_BY_Y],
  ['A/W1 agent Y', 'ids of X,Z', ['W1.X.workspace', 'W1.X.restricted.grantY', 'W1.Z.workspace', 'W1.Z.legacy']],

  ['A/W1 agent Z', 'all', ['W1.X.workspace', 'W1.Y.workspace', ...W1_Z_SEEN_BY_Z, 'W1.legacy']],
  ['A/W1 agent Z', 'self', W1_Z_SEEN_BY_Z],
  ['A/W1 agent Z', 'others', ['W1.X.workspace', 'W1.Y.workspace', 'W1.legacy']],
  ['A/W1 agent Z', 'id of Y', ['W1.Y.workspace']],
  ['A/W1 agent Z', 'ids of X,Z', ['W1.X.workspace', ...W1_Z_SEEN_BY_Z]],

  ['A/W1 outsider agent O', 'all', ['W1.X.workspace', 'W1.Y.workspace', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 outsider agent O', 'self', []],
  ['A/W1 outsider agent O', 'others', ['W1.X.workspace', 'W1.Y.workspace', 'W1.Z.workspace', 'W1.Z.legacy', 'W1.legacy']],
  ['A/W1 outsider agent O', 'id of Y', ['W1.Y.workspace']],
  ['A/W1 outsider agent O', 'ids of X,Z', ['W1.X.workspace', 'W1.Z.workspace', 'W1.Z.legacy']],

  ['A/W2 agent X', 'all', ['W2.X.workspace', 'W2.X.agent_only']],
  ['A/W2 agent X', 'self', ['W2.X.workspace', 'W2.X.agent_only']],
  ['A/W2 agent X', 'others', []],
  ['A/W2 agent X', 'id of Y', []],
  ['A/W2 agent X', 'ids of X,Z', ['W2.X.workspace', 'W2.X.agent_only']],

  ["user C's W1 agent X", 'all', ['C.W1.X.workspace', 'C.W1.X.agent_only', 'C.W1.Y.restricted.grantX']],
  ["user C's W1 agent X", 'self', ['C.W1.X.workspace', 'C.W1.X.agent_only']],
  ["user C's W1 agent X", 'others', ['C.W1.Y.restricted.grantX']],
  ["user C's W1 agent X", 'id of Y', ['C.W1.Y.restricted.grantX']],
  ["user C's W1 agent X", 'ids of X,Z', ['C.W1.X.workspace', 'C.W1.X.agent_only']],
];

interface Case {
  title: string;
  caller: CallerName;
  agentScope: AgentScopeName | null;
  expected: MarkerName[];
}

const CASES: Case[] = EXPECTED.map(([caller, agentScope, expected]) => ({
  title:
    `${caller}${agentScope ? ` with agent_scope=${agentScope}` : ''} ` +
    (expected.length ? `sees ${expected.join(', ')} and nothing else` : 'sees nothing'),
  caller,
  agentScope,
  expected: [...expected].sort(),
}));

/** The world in the model's terms: symbolic names stand for ids (no database needed). */
function modelCaller(caller: CallerName, agentScope: AgentScopeName | null): ModelCaller {
  const spec: CallerSpec = CALLERS[caller];
  if (!spec.workspace) return { kind: 'user', userId: spec.tenant };
  const scope =
    agentScope === null || agentScope === 'all' || agentScope === 'self' || agentScope === 'others'
      ? { kind: agentScope ?? 'all' }
      : { kind: 'agents' as const, agentIds: agentScope === 'id of Y' ? ['Y'] : ['X', 'Z'] };
  return { kind: 'workspace', userId: spec.tenant, workspaceId: spec.workspace, agentId: spec.agent as string, agentScope: scope };
}

function modelRow(name: MarkerName): ModelRow {
  const spec: MarkerSpec = MARKERS[name];
  return {
    id: name,
    userId: spec.tenant,
    workspaceId: spec.workspace,
    agentId: spec.agent,
    visibility: spec.visibility,
    grants: new Set(spec.grantedTo ?? []),
    live: spec.state === undefined,
    expired: false,
    versions: 1,
  };
}

describe('memory isolation between users, workspaces and agents', () => {
  let t: TestApp;
  let world: IsolationWorld;

  beforeAll(async () => {
    t = await createTestApp();
    world = await seedIsolation(t);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Scope fields for a caller, with agent_scope as an array (POST bodies) or as given. */
  function scopeFields(caller: CallerName, agentScope: AgentScopeName | null, list: 'array' | 'comma'): Record<string, unknown> {
    const spec: CallerSpec = CALLERS[caller];
    const base: Record<string, unknown> = { user_id: world.users[spec.tenant] };
    if (!spec.workspace) return base;
    base.workspace_id = world.workspaces[spec.workspace];
    base.agent_id = world.agents[spec.agent as AgentName];
    if (agentScope === 'id of Y') base.agent_scope = world.agents.Y;
    else if (agentScope === 'ids of X,Z') {
      // Mixed case on purpose: ids are case-insensitive (CONTRACT section 1).
      const ids = [world.agents.X.toUpperCase(), world.agents.Z];
      base.agent_scope = list === 'array' ? ids : ids.join(',');
    } else if (agentScope !== null) base.agent_scope = agentScope;
    return base;
  }

  const names = (ids: string[]): string[] => ids.map((id) => world.nameOf(id)).sort();

  /** Each read route, as "which marker names does this caller get back". */
  const READS: Record<string, (c: Case) => Promise<string[]>> = {
    'GET /v1/memories/list': async (c) => {
      const res = await t
        .http()
        .get('/v1/memories/list')
        .query({ ...scopeFields(c.caller, c.agentScope, 'comma'), limit: 100 });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.memories.length);
      const created = res.body.memories.map((m: { created_at: string }) => m.created_at);
      expect([...created].sort().reverse()).toEqual(created); // newest first
      return names(res.body.memories.map((m: { id: string }) => m.id));
    },

    'GET /v1/memories/:id': async (c) => {
      const seen: string[] = [];
      for (const name of MARKER_NAMES) {
        // agent_scope lists go as a repeated query parameter here (supertest repeats arrays)
        const res = await t
          .http()
          .get(`/v1/memories/${world.ids[name]}`)
          .query(scopeFields(c.caller, c.agentScope, 'array'));
        if (res.status === 200) {
          expect(res.body.id).toBe(world.ids[name]);
          seen.push(res.body.id);
        } else {
          // hidden answers exactly like missing (CONTRACT section 1)
          expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 404, body: { error: 'Memory not found' } });
        }
      }
      return names(seen);
    },

    'POST /v1/memories/expand': async (c) => {
      // every marker (live or not, any tenant) plus an unknown id, in a scrambled fixed order
      const asked = [...MARKER_NAMES.map((n) => world.ids[n]).reverse(), newId()];
      asked.sort((a, b) => a.slice(9).localeCompare(b.slice(9)));
      const res = await t
        .http()
        .post('/v1/memories/expand')
        .send({ ...scopeFields(c.caller, c.agentScope, 'array'), memory_ids: asked });
      expect(res.status).toBe(200);
      const got: string[] = res.body.memories.map((m: { id: string }) => m.id);
      expect(got).toEqual(asked.filter((id) => got.includes(id))); // in the order asked
      return names(got);
    },

    'POST /v1/memories/search': async (c) => {
      const res = await t
        .http()
        .post('/v1/memories/search')
        .send({ ...scopeFields(c.caller, c.agentScope, 'array'), query: SHARED_WORD, limit: 100 });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.memories.length);
      expect(res.body.citations).toEqual(res.body.memories.map((m: { id: string }) => m.id));
      return names(res.body.citations);
    },

    'POST /v1/memories/search/fast': async (c) => {
      const res = await t
        .http()
        .post('/v1/memories/search/fast')
        .send({ ...scopeFields(c.caller, c.agentScope, 'array'), query: SHARED_WORD, limit: 100 });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.memories.length);
      return names(res.body.memories.map((m: { id: string }) => m.id));
    },
  };

  describe('the expectations', () => {
    it.each(CASES)('agree with the CONTRACT rules model: $title', (c) => {
      const caller = modelCaller(c.caller, c.agentScope);
      const fromModel = MARKER_NAMES.filter((name) => isVisible(caller, modelRow(name))).sort();
      expect(fromModel).toEqual(c.expected);
    });

    it('cover every caller with every agent_scope', () => {
      const callerNames = Object.keys(CALLERS) as CallerName[];
      const expectedKeys = callerNames.flatMap((c) =>
        (CALLERS[c] as CallerSpec).workspace ? AGENT_SCOPES.map((s) => `${c}|${s}`) : [`${c}|null`],
      );
      expect(CASES.map((c) => `${c.caller}|${c.agentScope}`).sort()).toEqual(expectedKeys.sort());
    });

    it('rest on HIDDEN rows that really exist: the soft-deleted and superseded markers are still in the table', async () => {
      const rows: { id: string; deleted_at: Date | null; superseded_at: Date | null }[] = await t.dataSource.query(
        'SELECT id, deleted_at, superseded_at FROM memories WHERE id = ANY($1)',
        [[world.ids['A.user.deleted'], world.ids['W1.X.deleted'], world.ids['W1.Y.expired']]],
      );
      const byName = Object.fromEntries(
        rows.map((r) => [world.nameOf(r.id), { deleted: r.deleted_at !== null, expired: r.superseded_at !== null }]),
      );
      expect(byName).toEqual({
        'A.user.deleted': { deleted: true, expired: false },
        'W1.X.deleted': { deleted: true, expired: false },
        'W1.Y.expired': { deleted: false, expired: true },
      });
    });

    it('rest on legacy rows with NULL visibility', async () => {
      const rows: { id: string; visibility: string | null; agent_id: string | null }[] = await t.dataSource.query(
        'SELECT id, visibility, agent_id FROM memories WHERE id = ANY($1)',
        [[world.ids['W1.legacy'], world.ids['W1.Z.legacy']]],
      );
      const byName = Object.fromEntries(rows.map((r) => [world.nameOf(r.id), { visibility: r.visibility, agent: r.agent_id }]));
      expect(byName).toEqual({
        'W1.Z.legacy': { visibility: null, agent: world.agents.Z },
        'W1.legacy': { visibility: null, agent: null },
      });
    });
  });

  describe.each(Object.keys(READS))('%s', (route) => {
    it.each(CASES)('$title', async (c) => {
      expect(await READS[route](c)).toEqual(c.expected);
    });
  });

  describe('each vector-search plan on its own (VectorSearch)', () => {
    // Through HTTP, these small scopes always take the exact plan (SEARCH_EXACT_SCOPE_LIMIT);
    // the HNSW plan serves only large scopes. Here each plan's statement runs for every case on
    // the same world, asking for more rows than exist: each must return exactly the visible
    // markers (the HNSW plan's iterative scan walks the whole small graph).
    type Plan = (plans: VectorSearch, scope: MemoryScope, q: string, k: number) => Promise<ScoredRow[] | null>;
    const PLANS: Record<string, Plan> = {
      exact: (plans, scope, q, k) => plans.exactNearest(scope, q, k),
      'exact, bounded above the scope size': (plans, scope, q, k) => plans.exactNearest(scope, q, k, {}, 'read', 1000),
      HNSW: (plans, scope, q, k) => plans.indexedNearest(scope, q, k),
    };
    /** The case's caller as a scope, and the query vector every case uses. */
    const inputs = async (c: Case): Promise<{ scope: MemoryScope; vector: number[] }> => ({
      scope: parseMemoryScope(scopeFields(c.caller, c.agentScope, 'array')),
      vector: await t.app.get(EmbeddingService).embedQuery(SHARED_WORD),
    });
    const search = async (plan: Plan, c: Case, k: number): Promise<string[]> => {
      const { scope, vector } = await inputs(c);
      const rows = await plan(t.app.get(VectorSearch), scope, toVectorLiteral(vector), k);
      expect(rows).not.toBeNull();
      return names((rows as ScoredRow[]).map((r) => r.memory.id));
    };

    describe.each(Object.keys(PLANS))('%s', (plan) => {
      it.each(CASES)('$title', async (c) => {
        expect(await search(PLANS[plan], c, 100)).toEqual(c.expected);
      });
    });

    it('the bounded exact plan declines a scope larger than its bound (so the HNSW plan takes it)', async () => {
      const { scope, vector } = await inputs(CASES.find((x) => x.expected.length >= 3) as Case);
      expect(await t.app.get(VectorSearch).exactNearest(scope, toVectorLiteral(vector), 10, {}, 'read', 2)).toBeNull();
    });

    it.each(CASES.filter((c) => c.expected.length >= 2))(
      'with every scope "large", search still returns min(k, visible) visible rows: $title',
      async (c) => {
        // exact limit 0: every scope counts as large, so the HNSW plan runs first and the exact
        // plan answers only when the index returned fewer than k rows
        const repo = VectorSearch.withTuning(t.app.get(MemoryAccess), { exactScopeLimit: 0, efSearch: 40 });
        const { scope, vector } = await inputs(c);
        for (const k of [1, c.expected.length - 1, c.expected.length, 100]) {
          const got = names((await repo.nearestVisible(scope, vector, k)).map((r) => r.memory.id));
          expect(got).toHaveLength(Math.min(k, c.expected.length));
          expect(c.expected).toEqual(expect.arrayContaining(got));
        }
      },
    );
  });

  describe('ingest de-duplication', () => {
    // A tenant of its own; each case writes an original and then the same content as someone else.
    const owner = newUser('dedup-a');
    const otherUser = newUser('dedup-b');
    const ws = newId();
    const otherWs = newId();
    const X = newId();
    const Y = newId();
    const asX = { user_id: owner, workspace_id: ws, agent_id: X };
    const asY = { user_id: owner, workspace_id: ws, agent_id: Y };
    type Body = Record<string, unknown>;

    const ingest = async (body: Body, conversation: string) => {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...body, source_site: 'isolation-tests', skip_extraction: true, conversation });
      expect(res.status).toBe(200);
      return res.body as { memories_stored: number; memories_skipped: number; stored_memory_ids: string[] };
    };

    const cases: { title: string; original: Body; writer: Body; outcome: 'stored' | 'skipped' }[] = [
      {
        title: "agent Y repeating X's agent_only memory (hidden from Y)",
        original: { ...asX, visibility: 'agent_only' },
        writer: asY,
        outcome: 'stored',
      },
      {
        title: "agent Y repeating X's restricted memory without a grant",
        original: { ...asX, visibility: 'restricted' },
        writer: asY,
        outcome: 'stored',
      },
      {
        title: "agent X of another workspace repeating X's memory",
        original: asX,
        writer: { ...asX, workspace_id: otherWs },
        outcome: 'stored',
      },
      {
        title: "another user's X (same workspace and agent ids) repeating X's memory",
        original: asX,
        writer: { ...asX, user_id: otherUser },
        outcome: 'stored',
      },
      { title: "user B repeating user A's memory", original: { user_id: owner }, writer: { user_id: otherUser }, outcome: 'stored' },
      { title: 'user scope repeating a workspace memory of the same user', original: asX, writer: { user_id: owner }, outcome: 'stored' },
      {
        title: 'a workspace agent repeating a user-scope memory of the same user',
        original: { user_id: owner },
        writer: asX,
        outcome: 'stored',
      },
      { title: "agent Y repeating X's workspace memory (visible to Y)", original: asX, writer: asY, outcome: 'skipped' },
      {
        title: 'agent X repeating its own agent_only memory',
        original: { ...asX, visibility: 'agent_only' },
        writer: asX,
        outcome: 'skipped',
      },
      { title: 'user A repeating its own memory', original: { user_id: owner }, writer: { user_id: owner }, outcome: 'skipped' },
    ];

    it.each(cases)('compares only with rows the writer sees: $title is $outcome', async ({ original, writer, outcome }) => {
      const conversation = `Dedup case ${newId()}: the spare office key hangs behind the blue cabinet door`;
      const first = await ingest(original, conversation);
      expect(first.memories_stored).toBe(1);
      const second = await ingest(writer, conversation);
      expect({ stored: second.memories_stored, skipped: second.memories_skipped }).toEqual(
        outcome === 'stored' ? { stored: 1, skipped: 0 } : { stored: 0, skipped: 1 },
      );
      // the original is never rewritten by someone else's write
      const [row] = await t.dataSource.query('SELECT content, deleted_at, superseded_at FROM memories WHERE id = $1', [
        first.stored_memory_ids[0],
      ]);
      expect(row).toEqual({ content: conversation, deleted_at: null, superseded_at: null });
    });
  });

  describe('DELETE /v1/memories/:id', () => {
    // A tenant of its own, so these writes never disturb the read markers above.
    const owner = newUser('del-a');
    const intruder = newUser('del-b');
    const ws = newId();
    const otherWs = newId();
    const X = newId();
    const Y = newId();
    const asX = { user_id: owner, workspace_id: ws, agent_id: X };
    const asY = { user_id: owner, workspace_id: ws, agent_id: Y };
    const rows: Record<'xPrivate' | 'xRestricted' | 'xShared' | 'xSharedForY' | 'ownerPersonal', string> = {
      xPrivate: '',
      xRestricted: '',
      xShared: '',
      xSharedForY: '',
      ownerPersonal: '',
    };

    const store = async (body: Record<string, unknown>, conversation: string): Promise<string> => {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...body, source_site: 'isolation-tests', skip_extraction: true, conversation });
      expect(res.status).toBe(200);
      expect(res.body.stored_memory_ids).toHaveLength(1);
      return res.body.stored_memory_ids[0];
    };
    const deletedAt = async (id: string): Promise<Date | null> =>
      (await t.dataSource.query('SELECT deleted_at FROM memories WHERE id = $1', [id]))[0].deleted_at;

    beforeAll(async () => {
      rows.xPrivate = await store({ ...asX, visibility: 'agent_only' }, 'Delete test: the alarm code for the warehouse is 7781');
      rows.xRestricted = await store({ ...asX, visibility: 'restricted' }, 'Delete test: payroll runs on the twenty-fifth of each month');
      rows.xShared = await store(asX, 'Delete test: the shared printer on floor two jams with thick paper');
      rows.xSharedForY = await store(asX, 'Delete test: visitors must sign in at the reception desk downstairs');
      rows.ownerPersonal = await store({ user_id: owner }, 'Delete test: my library card number ends in 3390');
    });

    it("answers 404 when agent Y deletes X's agent_only memory, which X still sees", async () => {
      const res = await t.http().delete(`/v1/memories/${rows.xPrivate}`).query(asY);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Memory not found' });
      expect((await t.http().get(`/v1/memories/${rows.xPrivate}`).query(asX)).status).toBe(200);
      expect(await deletedAt(rows.xPrivate)).toBeNull();
    });

    it("answers 404 when agent Y deletes X's restricted memory without a grant", async () => {
      expect((await t.http().delete(`/v1/memories/${rows.xRestricted}`).query(asY)).status).toBe(404);
      expect(await deletedAt(rows.xRestricted)).toBeNull();
    });

    it("answers 403 when agent Y, granted a read of X's restricted memory, deletes it; X keeps it (a grant never allows a change)", async () => {
      const granted = await store({ ...asX, visibility: 'restricted' }, 'Delete test: the vault opens with the blue key only');
      expect(
        (
          await t
            .http()
            .post(`/v1/memories/${granted}/grants`)
            .send({ ...asX, grantee_agent_id: Y })
        ).status,
      ).toBe(201);
      expect((await t.http().get(`/v1/memories/${granted}`).query(asY)).status).toBe(200);
      const res = await t.http().delete(`/v1/memories/${granted}`).query(asY);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Only the owning agent may change this memory' });
      expect(await deletedAt(granted)).toBeNull();
      expect((await t.http().get(`/v1/memories/${granted}`).query(asX)).status).toBe(200);
      // The owner still deletes its own restricted memory.
      expect((await t.http().delete(`/v1/memories/${granted}`).query(asX)).body).toEqual({ success: true });
    });

    it('answers 404 to agent X of another workspace and to another user reusing the same workspace and agent ids', async () => {
      expect(
        (
          await t
            .http()
            .delete(`/v1/memories/${rows.xShared}`)
            .query({ ...asX, workspace_id: otherWs })
        ).status,
      ).toBe(404);
      expect(
        (
          await t
            .http()
            .delete(`/v1/memories/${rows.xShared}`)
            .query({ ...asX, user_id: intruder })
        ).status,
      ).toBe(404);
      expect(await deletedAt(rows.xShared)).toBeNull();
    });

    it('answers success to a user-scope delete of a workspace memory id and leaves the row untouched', async () => {
      const res = await t.http().delete(`/v1/memories/${rows.xShared}`).query({ user_id: owner });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await deletedAt(rows.xShared)).toBeNull();
      expect((await t.http().get(`/v1/memories/${rows.xShared}`).query(asY)).status).toBe(200);
    });

    it("answers success when user B deletes user A's memory and leaves the row untouched", async () => {
      const res = await t.http().delete(`/v1/memories/${rows.ownerPersonal}`).query({ user_id: intruder });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ success: true });
      expect(await deletedAt(rows.ownerPersonal)).toBeNull();
      expect((await t.http().get(`/v1/memories/${rows.ownerPersonal}`).query({ user_id: owner })).status).toBe(200);
    });

    it("answers 404 when a workspace agent deletes its user's user-scope memory", async () => {
      expect((await t.http().delete(`/v1/memories/${rows.ownerPersonal}`).query(asX)).status).toBe(404);
      expect(await deletedAt(rows.ownerPersonal)).toBeNull();
    });

    it("lets agent Y delete X's workspace-visible memory (delete follows visibility), after which nobody sees it", async () => {
      expect((await t.http().delete(`/v1/memories/${rows.xSharedForY}`).query(asY)).body).toEqual({ success: true });
      expect(await deletedAt(rows.xSharedForY)).not.toBeNull();
      expect((await t.http().get(`/v1/memories/${rows.xSharedForY}`).query(asX)).status).toBe(404);
      expect((await t.http().delete(`/v1/memories/${rows.xSharedForY}`).query(asX)).status).toBe(404);
    });
  });

  describe('route coverage', () => {
    // Every route the app registers (test/support/registered-routes.ts) is either a read route of
    // the table above, proven here against every caller and agent_scope, or named below with the
    // suite that proves its isolation, or reads no tenant data. A new route in none of them fails.
    const PROVEN_ELSEWHERE: Record<string, string> = {
      'DELETE /v1/memories/:id':
        "this file, 'DELETE /v1/memories/:id' (a grantee's delete is 403); test/memories/visibility.property.e2e.spec.ts",
      'GET /v1/memories/:id/history': "test/memories/lifecycle.e2e.spec.ts, 'isolation of history and expiry'",
      'POST /v1/memories/ingest': "this file, 'ingest de-duplication' (the writer's view); test/memories/llm-ingest.e2e.spec.ts",
      'POST /v1/memories/ingest/quick': "this file, 'ingest de-duplication'",
      'PATCH /v1/memories/:id': 'test/memories/visibility.property.e2e.spec.ts; routes.e2e.spec.ts (PATCH and grants)',
      'POST /v1/memories/:id/grants': 'test/memories/visibility.property.e2e.spec.ts; routes.e2e.spec.ts (PATCH and grants)',
      'GET /v1/memories/:id/grants': 'routes.e2e.spec.ts (PATCH and grants); test/auth/api-keys.e2e.spec.ts',
      'DELETE /v1/memories/:id/grants/:grantee_agent_id': 'test/memories/visibility.property.e2e.spec.ts',
      'GET /v1/memories/lessons':
        "test/lessons/lessons.e2e.spec.ts (never another user's lessons); test/lessons/lesson-readers.e2e.spec.ts (another agent's lesson text withheld)",
      'GET /v1/memories/lessons/stats': "test/lessons/lessons.e2e.spec.ts (never another user's lessons)",
      'POST /v1/memories/lessons/report':
        "test/lessons/lessons.e2e.spec.ts (one user's lessons never apply to another); test/lessons/lesson-readers.e2e.spec.ts (reports)",
      'DELETE /v1/memories/lessons/:id': "test/lessons/lessons.e2e.spec.ts (404 for another user's lesson)",
      'GET /v1/agents/trust': 'test/auth/api-keys.e2e.spec.ts (an agent key reads only its own)',
      'PUT /v1/agents/trust': 'test/auth/api-keys.e2e.spec.ts (never through an agent key)',
      'GET /v1/admin/explain': "test/inspector/explain.e2e.spec.ts (admin token only; 404 for another user's memory, never the content)",
      'POST /mcp': 'test/mcp/isolation.e2e.spec.ts (every tool, against the reference model of who sees what)',
      'GET /v1/memories/export': 'test/data/export.e2e.spec.ts (exactly what list returns to every caller of this world and agent_scope)',
      'POST /v1/memories/import':
        "test/data/import.e2e.spec.ts (into the caller's own scope; a user's admin export imported back gives every caller of this world the same memories and grants)",
      'POST /v1/admin/erase': "test/data/erasure.e2e.spec.ts (admin token only; other users' exports and searches unchanged)",
    };
    const NO_TENANT_DATA: Record<string, string> = {
      'GET /health': 'liveness',
      'GET /v1/memories/health': 'liveness and counts of the service, no rows',
      'GET /metrics': 'process and pool counters',
      'PUT /v1/memories/config': 'runtime settings',
      'POST /v1/admin/keys': 'API keys (admin token)',
      'GET /v1/admin/keys': 'API keys (admin token)',
      'DELETE /v1/admin/keys/:id': 'API keys (admin token)',
      'GET /v1/admin/audit': 'the audit log (admin token)',
      'GET /v1/whoami': 'the calling key and the ids it is bound to, no rows',
      'POST /v1/admin/webhooks': 'webhook subscriptions (admin token); who receives which event: test/observability/webhooks.e2e.spec.ts',
      'GET /v1/admin/webhooks': 'webhook subscriptions (admin token)',
      'DELETE /v1/admin/webhooks/:id': 'webhook subscriptions (admin token)',
      'GET /v1/admin/webhooks/deliveries': 'webhook deliveries: ids, event types and statuses, never content (admin token)',
      'GET /mcp': '405: the MCP server is stateless (no event stream)',
      'DELETE /mcp': '405: the MCP server is stateless (no session to end)',
    };

    it('has an isolation case for every registered route that reaches tenant data', () => {
      const registered = apiRoutes(t.app);
      const known = new Set([...Object.keys(READS), ...Object.keys(PROVEN_ELSEWHERE), ...Object.keys(NO_TENANT_DATA)]);
      expect(registered.filter((route) => !known.has(route))).toEqual([]);
      // and the tables name real routes (the admin routes exist only with an admin token)
      expect([...Object.keys(READS), ...Object.keys(PROVEN_ELSEWHERE)].filter((route) => !registered.includes(route))).toEqual([]);
    });
  });
});
