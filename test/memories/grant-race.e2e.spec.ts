import { newId, newUser } from '../support/ids';
import { repeatCount } from '../support/repeat';
import { createTestApp, type TestApp } from '../support/test-app';

const RUNS = repeatCount(200);

/**
 * A grant racing a visibility change (issue 20, finding 9): the owner grants agent Y a read of
 * its restricted memory while it makes the memory `workspace`, which drops every grant. Before
 * the fix the grant's INSERT ... SELECT read the row before the change committed and survived it
 * (26 of 40 runs on PostgreSQL), so making the memory restricted again let Y read it without a
 * new grant. Now the grant locks the memory row (FOR SHARE) and the two serialise.
 *
 * On PostgreSQL both requests run on their own connections and really race. The embedded PGlite
 * is a single connection: its statements run one after the other, so there the run checks the
 * outcome of each order rather than the race itself.
 */
describe('grants and visibility changes serialise', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it(`leaves no stale grant in ${RUNS} races of a grant against a visibility change`, async () => {
    let stale = 0;
    let grantsWon = 0;
    for (let run = 0; run < RUNS; run++) {
      const owner = { user_id: newUser('race'), workspace_id: newId(), agent_id: newId() };
      const grantee = newId();
      const stored = await t
        .http()
        .post('/v1/memories/ingest/quick')
        .send({
          ...owner,
          visibility: 'restricted',
          source_site: 'race',
          skip_extraction: true,
          conversation: `Race ${run}: the safe code is 4411`,
        });
      const id = stored.body.stored_memory_ids[0] as string;
      const [granted, changed] = await Promise.all([
        t
          .http()
          .post(`/v1/memories/${id}/grants`)
          .send({ ...owner, grantee_agent_id: grantee }),
        t
          .http()
          .patch(`/v1/memories/${id}`)
          .send({ ...owner, visibility: 'workspace' }),
      ]);
      expect(changed.status).toBe(200);
      // 201 when the grant came first (then the change dropped it), 409 when the change came first.
      expect([201, 409]).toContain(granted.status);
      if (granted.status === 201) grantsWon++;
      const [{ n }] = await t.dataSource.query(
        'SELECT count(*)::int AS n FROM memory_visibility_grants WHERE user_id = $1 AND memory_id = $2',
        [owner.user_id, id],
      );
      // Restricted again: the grantee must not read it without a new grant.
      expect(
        (
          await t
            .http()
            .patch(`/v1/memories/${id}`)
            .send({ ...owner, visibility: 'restricted' })
        ).status,
      ).toBe(200);
      const read = await t
        .http()
        .get(`/v1/memories/${id}`)
        .query({ user_id: owner.user_id, workspace_id: owner.workspace_id, agent_id: grantee });
      if (n > 0 || read.status !== 404) stale++;
    }
    process.stdout.write(`grant race: ${RUNS} runs, grant first in ${grantsWon}, stale grants ${stale}\n`);
    expect(stale).toBe(0);
  }, 300_000);
});
