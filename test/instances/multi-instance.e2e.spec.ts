import { newId, newUser } from '../support/ids';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { buildService } from './build-service';
import { startServiceProcess, type ServiceProcess } from './service-process';

/**
 * Three Atrium processes (real child processes, three loopback ports) on one PostgreSQL
 * database, as replicas behind a load balancer run. Run by `npm run test:instances` (CI runs
 * it through PgBouncer: DATABASE_URL via the pooler, DATABASE_DIRECT_URL direct).
 *
 * Nothing about a caller is cached in a process, so each property holds on the very next
 * request to any instance; the runtime config is the one piece of state each process keeps,
 * and it must follow the database within a second. The instances poll the config version
 * only once a minute here: within the bound, only the NOTIFY can have carried a change.
 *
 * With API keys (AUTH_MODE=api_key, two more processes): a key revoked through one instance
 * is refused by the other on the next request, search/fast included, where that instance takes
 * the key from its memory and the search statement itself re-checks the row.
 */
const CONFIG_PROPAGATION_BOUND_MS = 1000;

/** Atrium processes named `names` on one fresh test database, and how to stop them all. */
async function startFleet(
  names: string[],
  extraEnv: Record<string, string>,
): Promise<{ instances: ServiceProcess[]; stop(): Promise<void> }> {
  if (!process.env.DATABASE_URL) {
    throw new Error('the multi-instance test needs PostgreSQL: set DATABASE_URL (and DATABASE_DIRECT_URL behind PgBouncer)');
  }
  const db: TestDatabase = await createTestDatabase();
  const build = await buildService();
  const instances: ServiceProcess[] = [];
  const stop = async () => {
    await Promise.allSettled(instances.map((instance) => instance.stop()));
    await build.remove();
    await db.drop();
  };
  try {
    const env = { ...db.env, EMBEDDING_PROVIDER: 'hash', LOG_LEVEL: 'warn', DATABASE_POOL_SIZE: '4', ...extraEnv };
    // One at a time: the first applies nothing new (the template is migrated), the others
    // would wait on its migration lock anyway.
    for (const name of names) instances.push(await startServiceProcess(name, build.main, env));
  } catch (error) {
    await stop();
    throw error;
  }
  return { instances, stop };
}

describe('three Atrium processes on one database', () => {
  let fleet: Awaited<ReturnType<typeof startFleet>> | undefined;
  let instances: ServiceProcess[] = [];
  const at = (i: number): ServiceProcess => instances[i % instances.length];

  beforeAll(async () => {
    fleet = await startFleet(['a', 'b', 'c'], { CORE_RUNTIME_CONFIG_MUTATION_ENABLED: 'true', RUNTIME_CONFIG_POLL_MS: '60000' });
    instances = fleet.instances;
  }, 180_000);

  afterAll(async () => {
    await fleet?.stop();
  }, 60_000);

  it('shows a memory written through one instance on the others at the next read', async () => {
    const user = newUser('multi');
    const written = await at(0)
      .http()
      .post('/v1/memories/ingest/quick')
      .send({ user_id: user, source_site: 'multi.example', conversation: 'The staging cluster lives in Frankfurt', skip_extraction: true })
      .expect(200);
    const [id] = written.body.stored_memory_ids as string[];
    for (const instance of [at(1), at(2)]) {
      const got = await instance.http().get(`/v1/memories/${id}`).query({ user_id: user }).expect(200);
      expect(got.body.content).toBe('The staging cluster lives in Frankfurt');
      const listed = await instance.http().get('/v1/memories/list').query({ user_id: user }).expect(200);
      expect(listed.body.memories.map((m: { id: string }) => m.id)).toEqual([id]);
      const found = await instance
        .http()
        .post('/v1/memories/search/fast')
        .send({ user_id: user, query: 'staging cluster Frankfurt' })
        .expect(200);
      expect(found.body.memories.map((m: { id: string }) => m.id)).toEqual([id]);
    }
    await at(2).http().delete(`/v1/memories/${id}`).query({ user_id: user }).expect(200);
    for (const instance of [at(0), at(1)]) {
      await instance.http().get(`/v1/memories/${id}`).query({ user_id: user }).expect(404);
    }
  });

  it('enforces a grant revoked through one instance on the others at the next read', async () => {
    const user = newUser('grant');
    const workspace = newId();
    const owner = { user_id: user, workspace_id: workspace, agent_id: newId() };
    const grantee = { user_id: user, workspace_id: workspace, agent_id: newId() };
    const written = await at(0)
      .http()
      .post('/v1/memories/ingest/quick')
      .send({
        ...owner,
        source_site: 'planner',
        conversation: 'The venue contract is with Casa do Rio',
        skip_extraction: true,
        visibility: 'restricted',
      })
      .expect(200);
    const [id] = written.body.stored_memory_ids as string[];
    await at(1).http().get(`/v1/memories/${id}`).query(grantee).expect(404);

    await at(1)
      .http()
      .post(`/v1/memories/${id}/grants`)
      .send({ ...owner, grantee_agent_id: grantee.agent_id })
      .expect(201);
    for (const instance of instances) {
      await instance.http().get(`/v1/memories/${id}`).query(grantee).expect(200);
    }

    await at(2).http().delete(`/v1/memories/${id}/grants/${grantee.agent_id}`).query(owner).expect(200);
    for (const instance of instances) {
      await instance.http().get(`/v1/memories/${id}`).query(grantee).expect(404);
      const listed = await instance.http().get('/v1/memories/list').query(grantee).expect(200);
      expect(listed.body.memories).toEqual([]);
      const found = await instance
        .http()
        .post('/v1/memories/search')
        .send({ ...grantee, query: 'venue contract Casa do Rio' })
        .expect(200);
      expect(found.body.memories).toEqual([]);
      const expanded = await instance
        .http()
        .post('/v1/memories/expand')
        .send({ ...grantee, memory_ids: [id] })
        .expect(200);
      expect(expanded.body.memories).toEqual([]);
    }
  });

  it('applies a config change made through one instance on every instance within a second', async () => {
    const user = newUser('config');
    for (const text of ['Alpha deploys on Mondays', 'Alpha deploys need two reviews', 'Alpha deploys freeze in August']) {
      await at(0)
        .http()
        .post('/v1/memories/ingest/quick')
        .send({ user_id: user, source_site: 'ops', conversation: text, skip_extraction: true })
        .expect(200);
    }
    const changed = await at(1).http().put('/v1/memories/config').send({ max_search_results: 1 }).expect(200);
    const version = changed.body.config.config_version as number;
    const started = Date.now();
    const elapsed = await Promise.all(
      instances.map(async (instance) => {
        for (;;) {
          const health = await instance.http().get('/v1/memories/health').expect(200);
          if (health.body.config.config_version >= version) {
            expect(health.body.config.max_search_results).toBe(1);
            return Date.now() - started;
          }
          if (Date.now() - started > CONFIG_PROPAGATION_BOUND_MS) {
            throw new Error(
              `instance ${instance.name} still at config version ${health.body.config.config_version} after ${CONFIG_PROPAGATION_BOUND_MS} ms`,
            );
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }),
    );
    expect(Math.max(...elapsed)).toBeLessThanOrEqual(CONFIG_PROPAGATION_BOUND_MS);
    for (const instance of instances) {
      const found = await instance
        .http()
        .post('/v1/memories/search/fast')
        .send({ user_id: user, query: 'Alpha deploys', limit: 10 })
        .expect(200);
      expect(found.body.count).toBe(1);
    }
  });
});

describe('API keys across two Atrium processes (AUTH_MODE=api_key)', () => {
  const ADMIN_TOKEN = 'multi-instance-admin-token-0123456789abcdef';
  let fleet: Awaited<ReturnType<typeof startFleet>> | undefined;

  beforeAll(async () => {
    fleet = await startFleet(['keys-a', 'keys-b'], { AUTH_MODE: 'api_key', ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
  }, 180_000);

  afterAll(async () => {
    await fleet?.stop();
  }, 60_000);

  it('refuses a key revoked through one instance on the other at the next request, search/fast included', async () => {
    const [a, b] = (fleet as NonNullable<typeof fleet>).instances;
    const admin = { Authorization: `Bearer ${ADMIN_TOKEN}` };
    const minted = await a
      .http()
      .post('/v1/admin/keys')
      .set(admin)
      .send({ role: 'agent', user_id: newUser('keys'), workspace_id: newId(), agent_id: newId() })
      .expect(201);
    const auth = { Authorization: `Bearer ${minted.body.key as string}` };
    await b
      .http()
      .post('/v1/memories/ingest/quick')
      .set(auth)
      .send({ source_site: 'ops', conversation: 'The vault rotates its keys monthly', skip_extraction: true })
      .expect(200);
    for (let i = 0; i < 3; i++) {
      const found = await b.http().post('/v1/memories/search/fast').set(auth).send({ query: 'vault keys' }).expect(200);
      expect(found.body.count).toBe(1);
    }
    await a
      .http()
      .delete(`/v1/admin/keys/${minted.body.id as string}`)
      .set(admin)
      .expect(200);
    for (const instance of [b, a]) {
      const refused = await instance.http().post('/v1/memories/search/fast').set(auth).send({ query: 'vault keys' });
      expect({ status: refused.status, body: refused.body }).toEqual({ status: 401, body: { error: 'invalid or missing API key' } });
      await instance.http().get('/v1/memories/list').set(auth).expect(401);
    }
  });
});
