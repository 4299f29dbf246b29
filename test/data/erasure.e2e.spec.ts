import { randomUUID } from 'node:crypto';

import { Client } from 'pg';

import { MemoryAccess } from '../../src/database/access/memory-access';
import { existingTenantGraphs, reconcileTenantGraphs, tenantGraphName } from '../../src/database/maintenance/tenant-graphs';
import { SUBJECT_LOCK_KEY, SUBJECT_TABLES } from '../../src/database/access/erasure';
import { ADMIN_TOKEN, adminAuth } from '../support/api-keys';
import { newUser } from '../support/ids';
import { newMemoryRow } from '../support/memory-rows';
import { memoryLines, ndjsonLines } from '../support/ndjson';
import { MARKERS, seedIsolation, type IsolationWorld } from '../support/seed-isolation';
import { createTestApp, type TestApp } from '../support/test-app';
import { isPostgresRun } from '../support/test-database';

/**
 * POST /v1/admin/erase (CONTRACT section 13): every trace of a user, workspace or agent goes in
 * one transaction; the residue is counted again; nothing of anyone else changes.
 */
describe('erasure', () => {
  let t: TestApp;
  let world: IsolationWorld;

  beforeAll(async () => {
    t = await createTestApp({ ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
    world = await seedIsolation(t);
  });
  afterAll(async () => {
    await t.close();
  });

  const erase = (body: Record<string, unknown>) => t.http().post('/v1/admin/erase').set(adminAuth).send(body);

  /** Base tables of the schema (partitions and the migrations' bookkeeping left out). */
  const tables = async (): Promise<string[]> =>
    (
      await t.dataSource.query(
        `SELECT c.relname AS name FROM pg_class c
          WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relnamespace = current_schema()::regnamespace
          ORDER BY 1`,
      )
    ).map((r: { name: string }) => r.name);

  /** Rows of every table whose text (every column, cast) contains `needle`. */
  const scan = async (needle: string): Promise<Record<string, number>> => {
    const found: Record<string, number> = {};
    for (const table of await tables()) {
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM "${table}" t WHERE CAST(t AS text) LIKE $1`, [`%${needle}%`]);
      if (n > 0) found[table] = n;
    }
    return found;
  };

  const exportIds = async (query: Record<string, unknown>): Promise<string[]> => {
    const res = await ndjsonLines(t.http().get('/v1/memories/export').query(query));
    return memoryLines(res.lines)
      .map((m) => m.id as string)
      .sort();
  };
  const searchIds = async (query: Record<string, unknown>): Promise<string[]> => {
    const res = await t
      .http()
      .post('/v1/memories/search')
      .send({ ...query, query: 'zeppelin marker', limit: 100 });
    expect(res.status).toBe(200);
    return (res.body.memories as { id: string }[]).map((m) => m.id).sort();
  };

  it('lists, in SUBJECT_TABLES, every table and column of the schema that can hold a user, workspace or agent id', async () => {
    const columns: { table_name: string; column_name: string }[] = await t.dataSource.query(
      `SELECT c.table_name, c.column_name FROM information_schema.columns c
         JOIN pg_class k ON k.relname = c.table_name AND k.relnamespace = current_schema()::regnamespace
        WHERE c.table_schema = current_schema() AND NOT k.relispartition
          AND (c.column_name IN ('user_id', 'workspace_id') OR c.column_name LIKE '%agent\\_id')`,
    );
    const inSchema: Record<string, string[]> = {};
    for (const { table_name, column_name } of columns) (inSchema[table_name] ??= []).push(column_name);
    const listed: Record<string, string[]> = {};
    for (const [table, spec] of Object.entries(SUBJECT_TABLES)) {
      listed[table] = [spec.user, ...(spec.workspace ? [spec.workspace] : []), ...spec.agent];
    }
    const sorted = (record: Record<string, string[]>) => Object.fromEntries(Object.entries(record).map(([k, v]) => [k, [...v].sort()]).sort());
    expect(sorted(listed)).toEqual(sorted(inSchema));
  });

  it('erases a user: afterwards no column of any table holds its id, and the other users see exactly what they saw', async () => {
    const a = world.users.A;
    // More traces than the world has: a lesson, a trust row, an API key, access counts.
    expect((await t.http().post('/v1/memories/lessons/report').query({ user_id: a }).send({ pattern: 'wire money abroad' })).status).toBe(201);
    expect((await t.http().put('/v1/agents/trust').send({ user_id: a, agent_id: world.agents.X, trust_level: 0.7 })).status).toBe(200);
    expect((await t.http().post('/v1/admin/keys').set(adminAuth).send({ role: 'user', user_id: a })).status).toBe(201);
    await searchIds({ user_id: a });
    const others = [
      { user_id: world.users.B },
      { user_id: world.users.C },
      { user_id: world.users.C, workspace_id: world.workspaces.W1, agent_id: world.agents.X },
      { user_id: world.users.C, workspace_id: world.workspaces.W1, agent_id: world.agents.Y },
    ];
    const before = await Promise.all(others.map(async (q) => [await exportIds(q), await searchIds(q)]));
    const auditOfA: string[] = (await t.dataSource.query('SELECT id FROM audit_events WHERE user_id = $1', [a])).map((r: { id: string }) => r.id);
    expect(auditOfA.length).toBeGreaterThan(10);
    expect(await scan(a)).not.toEqual({});

    const res = await erase({ user_id: a });
    expect(res.status).toBe(200);
    const rowsOfA = Object.values(MARKERS).filter((spec) => spec.tenant === 'A').length;
    expect(res.body.erased).toMatchObject({ memories: rowsOfA, lessons: 1, agents: 1, api_keys: 1, audit_events: auditOfA.length, tenant_graphs: 0 });
    expect(res.body.erased.memory_versions).toBeGreaterThanOrEqual(rowsOfA - 2);
    expect(res.body.erased.memory_visibility_grants).toBe(1);
    expect(Object.values(res.body.residue).every((n) => n === 0)).toBe(true);
    expect(Object.keys(res.body.residue)).toEqual(expect.arrayContaining(Object.keys(SUBJECT_TABLES)));

    // Every column of every table: nothing names the user; its audit events are skeletons.
    expect(await scan(a)).toEqual({});
    const skeletons = await t.dataSource.query('SELECT * FROM audit_events WHERE id = ANY($1)', [auditOfA]);
    expect(skeletons).toHaveLength(auditOfA.length);
    for (const event of skeletons) {
      expect(event).toMatchObject({ user_id: null, workspace_id: null, agent_id: null, key_id: null, target_id: null, request_id: null, detail: {} });
    }
    const [erasedEvent] = await t.dataSource.query("SELECT * FROM audit_events WHERE action = 'subject.erased' ORDER BY at DESC LIMIT 1");
    expect(erasedEvent).toMatchObject({ user_id: null, target_id: null, detail: expect.objectContaining({ subject: 'user', memories: rowsOfA }) });

    // Nothing of the other users changed (their exports and their search results).
    const after = await Promise.all(others.map(async (q) => [await exportIds(q), await searchIds(q)]));
    expect(after).toEqual(before);
    expect((await exportIds({ user_id: world.users.C, workspace_id: world.workspaces.W1, agent_id: world.agents.X })).length).toBeGreaterThan(0);
  });

  it('erases the webhook subscriptions that read as the user and every delivery about it', async () => {
    const user = newUser('erase-hooks');
    const ws = randomUUID();
    const agent = randomUUID();
    for (const scope of [{}, { workspace_id: ws, agent_id: agent }]) {
      const sub = await t
        .http()
        .post('/v1/admin/webhooks')
        .set(adminAuth)
        .send({ user_id: user, url: 'https://hooks.example.com/atrium', events: ['memory.stored', 'memory.deleted'], ...scope });
      expect(sub.status).toBe(201);
    }
    for (const scope of [{ user_id: user }, { user_id: user, workspace_id: ws, agent_id: agent }]) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...scope, conversation: 'the hangar keeps the blue zeppelin', source_site: 's', skip_extraction: true });
      expect(res.status).toBe(200);
    }
    const [{ n: queued }] = await t.dataSource.query('SELECT count(*)::int AS n FROM webhook_outbox WHERE user_id = $1', [user]);
    expect(queued).toBeGreaterThanOrEqual(2);

    const res = await erase({ user_id: user });
    expect(res.status).toBe(200);
    expect(res.body.erased).toMatchObject({ webhook_subscriptions: 2, webhook_outbox: queued });
    expect(res.body.residue).toMatchObject({ webhook_subscriptions: 0, webhook_outbox: 0 });
    expect(await scan(user)).toEqual({});
  });

  it("erases one agent of a workspace: its memories, grants given and received, trust and key; the other agents' stay", async () => {
    const user = newUser('erase-agent');
    const ws = randomUUID();
    const [x, y, z] = [randomUUID(), randomUUID(), randomUUID()];
    const scope = (agent: string) => ({ user_id: user, workspace_id: ws, agent_id: agent });
    const store = async (agent: string, text: string, visibility: string) => {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...scope(agent), conversation: text, source_site: 's', skip_extraction: true, visibility });
      expect(res.status).toBe(200);
      return res.body.stored_memory_ids[0] as string;
    };
    const xOwn = await store(x, 'the agent to erase keeps the boiler manual', 'restricted');
    const yOwn = await store(y, 'another agent notes the roof repair date', 'restricted');
    const zOwn = await store(z, 'the third agent tracks the garden hose', 'workspace');
    const grant = async (owner: string, memory: string, grantee: string) =>
      expect((await t.http().post(`/v1/memories/${memory}/grants`).send({ ...scope(owner), grantee_agent_id: grantee })).status).toBe(201);
    await grant(x, xOwn, y); // given by x
    await grant(y, yOwn, x); // given to x
    await grant(y, yOwn, z); // between others
    await t.http().put('/v1/agents/trust').send({ user_id: user, agent_id: x, trust_level: 0.9 });
    await t.http().post('/v1/admin/keys').set(adminAuth).send({ role: 'agent', ...scope(x) });
    // x edits z's shared memory: the version keeps the change and loses x
    expect((await t.http().patch(`/v1/memories/${zOwn}`).send({ ...scope(z), metadata: { by: 'z' } })).status).toBe(200);
    await t.dataSource.query('UPDATE memory_versions SET agent_id = $1 WHERE memory_id = $2 AND version = 2', [x, zOwn]);

    const res = await erase(scope(x));
    expect(res.status).toBe(200);
    expect(res.body.erased).toMatchObject({ memories: 1, memory_visibility_grants: 2, agents: 1, api_keys: 1, memory_versions_attributions: 1 });
    expect(Object.values(res.body.residue).every((n) => n === 0)).toBe(true);
    expect(await scan(x)).toEqual({});

    expect(await exportIds(scope(y))).toEqual([yOwn, zOwn].sort());
    const grants = await t.http().get(`/v1/memories/${yOwn}/grants`).query(scope(y));
    expect(grants.body.grants.map((g: { grantee_agent_id: string }) => g.grantee_agent_id)).toEqual([z]);
    const history = await t.http().get(`/v1/memories/${zOwn}/history`).query(scope(z));
    expect(history.body.versions.map((v: { agent_id: string | null }) => v.agent_id)).toEqual([z, null]);
  });

  it('erases one workspace of a user and leaves its other workspace and personal memories', async () => {
    const a = world.users.C;
    const before = await exportIds({ user_id: a });
    const res = await erase({ user_id: a, workspace_id: world.workspaces.W1 });
    expect(res.status).toBe(200);
    expect(res.body.erased.memories).toBe(4);
    expect(Object.values(res.body.residue).every((n) => n === 0)).toBe(true);
    expect(await exportIds({ user_id: a, workspace_id: world.workspaces.W1, agent_id: world.agents.Y })).toEqual([]);
    expect(await exportIds({ user_id: a })).toEqual(before);
    const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM memories WHERE user_id = $1 AND workspace_id = $2', [
      a,
      world.workspaces.W1,
    ]);
    expect(n).toBe(0);
  });

  it('waits for a write of the same user that is under way, and erases what it wrote (the subject lock)', async () => {
    const user = newUser('erase-race');
    const access = t.app.get(MemoryAccess);
    const row = newMemoryRow(
      user,
      'written while the erasure starts',
      Array.from({ length: t.env.EMBEDDING_DIMENSIONS }, (_, i) => (i === 0 ? 1 : 0)),
      { sourceSite: 'race' },
    );
    let erasure: Promise<{ status: number; body: { erased: Record<string, number>; residue: Record<string, number> } }> | undefined;
    let answeredEarly = false;
    await access.transaction(async (tx) => {
      await tx.insertMemories([row]); // holds the user's lock, shared, until this transaction ends
      erasure = erase({ user_id: user }).then((r) => {
        answeredEarly = true;
        return r;
      }) as typeof erasure;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answeredEarly).toBe(false); // the erasure waits for the write
    });
    const res = await erasure!;
    expect(res.status).toBe(200);
    expect(res.body.erased.memories).toBe(1);
    expect(Object.values(res.body.residue).every((n) => n === 0)).toBe(true);
    expect(await scan(user)).toEqual({});
  });

  it('makes a webhook subscription of the user wait while an erasure holds the subject lock (the subject lock)', async () => {
    const user = newUser('erase-hook-race');
    let created: Promise<{ status: number; body: { user_id: string } }> | undefined;
    let answeredEarly = false;
    await t.dataSource.transaction(async (manager) => {
      // What the erasure holds for its whole transaction.
      await manager.query(`SELECT pg_advisory_xact_lock(${SUBJECT_LOCK_KEY('$1')})`, [user]);
      created = t
        .http()
        .post('/v1/admin/webhooks')
        .set(adminAuth)
        .send({ user_id: user, url: 'https://hooks.example.com/race', events: ['memory.stored'] })
        .then((r) => {
          answeredEarly = true;
          return r;
        }) as typeof created;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answeredEarly).toBe(false); // the subscription waits for the "erasure"
      const [{ n }] = await manager.query('SELECT count(*)::int AS n FROM webhook_subscriptions WHERE user_id = $1', [user]);
      expect(n).toBe(0);
    });
    const res = await created!;
    expect(res.status).toBe(201);
    expect(res.body.user_id).toBe(user);
    // And the other way round: an erasure erases the subscription committed before it.
    const erased = await erase({ user_id: user });
    expect(erased.status).toBe(200);
    expect(erased.body.erased.webhook_subscriptions).toBe(1);
  });

  it('makes an ingest that stores nothing (its episode alone, one statement) wait while an erasure holds the subject lock', async () => {
    const user = newUser('erase-episode-race');
    const ingest = () =>
      t.http().post('/v1/memories/ingest/quick').send({ user_id: user, source_site: 'race', conversation: 'the ferry leaves at dawn', skip_extraction: true });
    expect((await ingest()).body.memories_stored).toBe(1);
    const episodes = async (): Promise<number> =>
      (await t.dataSource.query('SELECT count(*)::int AS n FROM episodes WHERE user_id = $1', [user]))[0].n;
    expect(await episodes()).toBe(1);
    let again: Promise<{ status: number; body: { memories_stored: number; memories_skipped: number } }> | undefined;
    let answeredEarly = false;
    await t.dataSource.transaction(async (manager) => {
      // What the erasure holds for its whole transaction.
      await manager.query(`SELECT pg_advisory_xact_lock(${SUBJECT_LOCK_KEY('$1')})`, [user]);
      again = ingest().then((r) => {
        answeredEarly = true;
        return r;
      }) as typeof again;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answeredEarly).toBe(false); // the duplicate's episode waits for the "erasure"
      const [{ n }] = await manager.query('SELECT count(*)::int AS n FROM episodes WHERE user_id = $1', [user]);
      expect(n).toBe(1);
    });
    const res = await again!;
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ memories_stored: 0, memories_skipped: 1 });
    expect(await episodes()).toBe(2);
    // And an erasure takes the episode committed before it.
    const erased = await erase({ user_id: user });
    expect(erased.status).toBe(200);
    expect(erased.body.erased.episodes).toBe(2);
    expect(await scan(user)).toEqual({});
  });

  it('makes an ingest that stores a memory (one statement) wait while an erasure holds the subject lock, and stores it after the erasure removed a subscription', async () => {
    const user = newUser('erase-store-race');
    const sub = await t
      .http()
      .post('/v1/admin/webhooks')
      .set(adminAuth)
      .send({ user_id: user, url: 'https://hooks.example.com/store-race', events: ['memory.stored'] });
    expect(sub.status).toBe(201);
    const ingest = (conversation: string) =>
      t.http().post('/v1/memories/ingest/quick').send({ user_id: user, source_site: 'race', conversation, skip_extraction: true });
    expect((await ingest('the lighthouse keeper paints the railings')).body.memories_stored).toBe(1);
    const count = async (table: 'memories' | 'webhook_outbox'): Promise<number> =>
      (await t.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE user_id = $1`, [user]))[0].n;
    expect(await count('webhook_outbox')).toBe(1);
    let stored: Promise<{ status: number; body: { memories_stored: number } }> | undefined;
    let answeredEarly = false;
    await t.dataSource.transaction(async (manager) => {
      // What the erasure holds for its whole transaction, and part of what it deletes: the
      // write's statement took its snapshot before it waited, and still sees the subscription.
      await manager.query(`SELECT pg_advisory_xact_lock(${SUBJECT_LOCK_KEY('$1')})`, [user]);
      stored = ingest('the harbour master rings the noon bell').then((r) => {
        answeredEarly = true;
        return r;
      }) as typeof stored;
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(answeredEarly).toBe(false); // the write waits for the "erasure"
      if (isPostgresRun()) {
        // ...for the lock, having written nothing yet: a transaction id is given at its first write.
        const waiting = await manager.query(
          `SELECT backend_xid::text AS xid FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
        );
        expect(waiting).toEqual([{ xid: null }]);
      }
      await manager.query('DELETE FROM webhook_subscriptions WHERE user_id = $1', [user]);
    });
    const res = await stored!;
    expect(res.status).toBe(200);
    expect(res.body.memories_stored).toBe(1);
    expect(await count('memories')).toBe(2);
    // The subscription's queued event went with it, and the new memory made none.
    expect(await count('webhook_outbox')).toBe(0);
  });

  it('rolls everything back and answers 409 with the residue when a row of the subject survives the deletion', async () => {
    const user = newUser('erase-residue');
    expect(user).toMatch(/^[\w-]+$/); // spliced into the trigger's condition below
    const ws = randomUUID();
    for (const scope of [{ user_id: user }, { user_id: user, workspace_id: ws, agent_id: randomUUID() }]) {
      const res = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ ...scope, conversation: `the residue test keeps a copper kettle ${randomUUID()}`, source_site: 's', skip_extraction: true });
      expect(res.status).toBe(200);
    }
    expect((await t.http().post('/v1/memories/lessons/report').query({ user_id: user }).send({ pattern: 'residue pattern' })).status).toBe(201);
    const rowsOf = async (): Promise<Record<string, number>> => {
      const counts: Record<string, number> = {};
      for (const table of Object.keys(SUBJECT_TABLES)) {
        const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM "${table}" WHERE user_id = $1`, [user]);
        counts[table] = n;
      }
      return counts;
    };
    const before = await rowsOf();
    expect(before).toMatchObject({ memories: 2, lessons: 1 });
    const erasedEvents = async (): Promise<number> =>
      (await t.dataSource.query("SELECT count(*)::int AS n FROM audit_events WHERE action = 'subject.erased'"))[0].n;
    const eventsBefore = await erasedEvents();

    // A row the deletion cannot reach: a trigger that cancels the DELETE of this user's lessons.
    await t.dataSource.query('CREATE FUNCTION atrium_test_keep_row() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$');
    await t.dataSource.query(
      `CREATE TRIGGER atrium_test_keep_lesson BEFORE DELETE ON lessons FOR EACH ROW
        WHEN (OLD.user_id = '${user}') EXECUTE FUNCTION atrium_test_keep_row()`,
    );
    try {
      const refused = await erase({ user_id: user });
      expect(refused.status).toBe(409);
      expect(refused.body).toEqual({
        error: 'erasure left residue and was rolled back: nothing was erased (retry)',
        residue: expect.objectContaining({ lessons: 1, memories: 0, memory_versions: 0 }),
      });
      expect(Object.entries(refused.body.residue).filter(([, n]) => n !== 0)).toEqual([['lessons', 1]]);
      // Rolled back: every row of the subject is still there, and no erasure was audited.
      expect(await rowsOf()).toEqual(before);
      expect(await erasedEvents()).toBe(eventsBefore);
    } finally {
      await t.dataSource.query('DROP TRIGGER atrium_test_keep_lesson ON lessons');
      await t.dataSource.query('DROP FUNCTION atrium_test_keep_row()');
    }

    const res = await erase({ user_id: user });
    expect(res.status).toBe(200);
    expect(res.body.erased).toMatchObject({ memories: 2, lessons: 1 });
    expect(Object.values(res.body.residue).every((n) => n === 0)).toBe(true);
    expect(await scan(user)).toEqual({});
  });

  if (isPostgresRun()) {
    it("drops the tenant graphs (per-scope HNSW indexes) of an erased user's scopes", async () => {
      const user = newUser('erase-graphs');
      const ws = randomUUID();
      for (const [i, scope] of [{ user_id: user }, { user_id: user, workspace_id: ws, agent_id: randomUUID() }].entries()) {
        for (let n = 0; n < 3; n++) {
          const res = await t
            .http()
            .post('/v1/memories/ingest/quick')
            .send({ ...scope, source_site: 'graphs', skip_extraction: true, conversation: `graph scope ${i} note ${n} ${randomUUID()}` });
          expect(res.status).toBe(200);
        }
      }
      const names = [tenantGraphName({ userId: user, workspaceId: null }), tenantGraphName({ userId: user, workspaceId: ws })];
      const direct = new Client({ connectionString: t.env.DATABASE_DIRECT_URL ?? t.env.DATABASE_URL });
      await direct.connect();
      try {
        await reconcileTenantGraphs(direct, { minRows: 3 });
        expect([...(await existingTenantGraphs(direct)).keys()]).toEqual(expect.arrayContaining(names));
        const res = await erase({ user_id: user });
        expect(res.status).toBe(200);
        expect(res.body.erased.tenant_graphs).toBe(2);
        expect(res.body.residue.tenant_graphs).toBe(0);
        const left = await existingTenantGraphs(direct);
        expect(names.filter((name) => left.has(name))).toEqual([]);
      } finally {
        await direct.end();
      }
    });
  }

  it('answers 400 naming the field, and needs the admin token', async () => {
    expect((await erase({})).body).toEqual({ error: 'user_id (string) is required' });
    expect((await erase({ user_id: 'u', agent_id: randomUUID() })).body).toEqual({ error: 'agent_id requires workspace_id' });
    expect((await erase({ user_id: 'u', workspace_id: 'nope' })).body).toEqual({ error: 'workspace_id must be a valid UUID' });
    const anonymous = await t.http().post('/v1/admin/erase').send({ user_id: 'u' });
    expect(anonymous.status).toBe(401);
  });
});
