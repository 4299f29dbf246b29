import {
  AtriumClient,
  AtriumError,
  type MemoryRecord,
  type OwnerScopeInput,
  type SearchOptions,
  type WorkspaceScopeInput,
} from '../../src/client';
import { newId, newUser } from '../support/ids';
import { startListeningApp, type ListeningApp } from './listening-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Free-form metadata with both key styles at every depth: it must come back exactly. */
const METADATA = {
  snake_key: 1,
  camelKey: { inner_snake: [{ deep_key: true, deepCamel: 'x' }], innerCamel: null },
  'Odd Key-1': 'kept',
  user_id: 'not a scope field',
};

const ids = (memories: { id: string }[]): string[] => memories.map((m) => m.id).sort();
const sorted = (...values: string[]): string[] => [...values].sort();

/** Resolves to the AtriumError the call fails with (and fails the test if it does not). */
async function failure(call: Promise<unknown>): Promise<AtriumError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AtriumError);
  return error as AtriumError;
}

describe('AtriumClient against the real service', () => {
  let app: ListeningApp;
  let client: AtriumClient;

  const user = newUser('client');
  const workspaceId = newId();
  const agentA = newId();
  const agentB = newId();
  const asA: WorkspaceScopeInput = { userId: user, workspaceId, agentId: agentA };
  const asB: WorkspaceScopeInput = { userId: user, workspaceId, agentId: agentB };
  const ownerA: OwnerScopeInput = { userId: user, workspaceId, agentId: agentA };
  const ownerB: OwnerScopeInput = { userId: user, workspaceId, agentId: agentB };

  /** Seeded: A's shared, private and restricted memories, B's shared one. */
  const seeded = { sharedA: '', privateA: '', restrictedA: '', sharedB: '' };

  const remember = async (
    scope: OwnerScopeInput,
    conversation: string,
    extra: Partial<{ visibility: 'workspace' | 'agent_only' | 'restricted'; metadata: Record<string, unknown> }> = {},
  ) => {
    const result = await client.ingestQuick({ ...scope, conversation, sourceSite: 'client-tests', skipExtraction: true, ...extra });
    expect(result.memoriesStored).toBe(1);
    return result.storedMemoryIds[0];
  };

  beforeAll(async () => {
    app = await startListeningApp();
    client = app.client();
    seeded.sharedA = await remember(ownerA, 'Falcon deploy window is Tuesday at noon', { metadata: METADATA });
    seeded.privateA = await remember(ownerA, 'Falcon private scratch note: vendor quote is 40k', { visibility: 'agent_only' });
    seeded.restrictedA = await remember(ownerA, 'Falcon launch codename is Aurora', { visibility: 'restricted' });
    seeded.sharedB = await remember(ownerB, 'Falcon QA signoff is still pending');
  });
  afterAll(async () => {
    await app?.t.close();
  });

  describe('health', () => {
    it('answers health and the effective runtime config with camelCase keys', async () => {
      await expect(client.health()).resolves.toEqual({ status: 'ok' });
      const health = await client.memoriesHealth();
      expect(health.status).toBe('ok');
      expect(health.config).toMatchObject({ maxSearchResults: expect.any(Number), lessonsEnabled: true, lessonSimilarityThreshold: 0.75 });
      expect(Object.keys(health.config).filter((k) => k.includes('_'))).toEqual([]);
    });
  });

  describe('writes and reads', () => {
    it('ingests with rule-based extraction and answers camelCase counts', async () => {
      const result = await client.ingest({
        userId: newUser('ingest'),
        sourceSite: 'chat.example',
        conversation: 'user: I moved to Lisbon last year.\nuser: I prefer window seats on flights.',
      });
      expect(result).toEqual({
        episodeId: expect.stringMatching(UUID),
        factsExtracted: 2,
        memoriesStored: 2,
        memoriesUpdated: 0,
        memoriesDeleted: 0,
        memoriesSkipped: 0,
        storedMemoryIds: [expect.stringMatching(UUID), expect.stringMatching(UUID)],
        updatedMemoryIds: [],
      });
    });

    it('gets a camelCase memory record whose metadata round-trips unchanged', async () => {
      const memory = await client.get({ ...asB, id: seeded.sharedA });
      const expected: Partial<MemoryRecord> = {
        id: seeded.sharedA,
        userId: user,
        content: 'Falcon deploy window is Tuesday at noon',
        memoryType: expect.any(String),
        sourceSite: 'client-tests',
        sourceUrl: null,
        episodeId: expect.stringMatching(UUID),
        status: 'active',
        trustScore: expect.any(Number),
        workspaceId,
        agentId: agentA,
        visibility: 'workspace',
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        accessCount: expect.any(Number),
      };
      expect(memory).toMatchObject(expected);
      expect(memory.metadata).toEqual(METADATA);
      expect(Object.keys(memory).filter((k) => k.includes('_'))).toEqual([]);
    });

    it('returns metadata unchanged from search and expand too', async () => {
      const search = await client.search({ ...asA, query: 'Falcon deploy window Tuesday' });
      expect(search.memories.find((m) => m.id === seeded.sharedA)?.metadata).toEqual(METADATA);
      const expanded = await client.expand({ ...asA, memoryIds: [seeded.sharedA] });
      expect(expanded.memories[0].metadata).toEqual(METADATA);
    });

    it('searches as agent A: its own private and restricted memories plus every shared one', async () => {
      const result = await client.search({ ...asA, query: 'Falcon' });
      expect(ids(result.memories)).toEqual(sorted(seeded.sharedA, seeded.privateA, seeded.restrictedA, seeded.sharedB));
      expect(result).toMatchObject({
        count: 4,
        retrievalMode: 'flat',
        scope: { kind: 'workspace', userId: user, workspaceId, agentId: agentA, agentScope: 'all' },
        lessonCheck: { safe: true, warnings: [], highestSeverity: 'none', matchedCount: 0 },
      });
      expect(result.citations).toEqual(result.memories.map((m) => m.id));
      expect(result.injectionText).toMatch(
        /^## Relevant memories\n<memory n="1" id="[0-9a-f-]{36}" source="client-tests" date="\d{4}-\d\d-\d\d">\n/,
      );
      expect(result.memories[0]).toEqual({
        id: expect.stringMatching(UUID),
        content: expect.any(String),
        similarity: expect.any(Number),
        score: expect.any(Number),
        importance: expect.any(Number),
        sourceSite: 'client-tests',
        createdAt: expect.stringMatching(ISO),
        metadata: expect.any(Object),
        workspaceId,
        agentId: expect.stringMatching(UUID),
        visibility: expect.any(String),
      });
    });

    it("searches as agent B: the shared memories only, not A's private or restricted ones", async () => {
      for (const search of [client.search.bind(client), client.searchFast.bind(client)]) {
        const result = await search({ ...asB, query: 'Falcon' });
        expect(ids(result.memories)).toEqual(sorted(seeded.sharedA, seeded.sharedB));
        expect(result.lessonCheck?.safe).toBe(true);
      }
    });

    it('narrows by agentScope in a body (search) and in a query string (list, repeated for a list)', async () => {
      expect(ids((await client.search({ ...asA, query: 'Falcon', agentScope: 'others' })).memories)).toEqual([seeded.sharedB]);
      expect(ids((await client.list({ ...asA, agentScope: 'self' })).memories)).toEqual(
        sorted(seeded.sharedA, seeded.privateA, seeded.restrictedA),
      );
      expect(ids((await client.list({ ...asA, agentScope: [agentB] })).memories)).toEqual([seeded.sharedB]);
      expect(ids((await client.list({ ...asB, agentScope: [agentA, agentB] })).memories)).toEqual(sorted(seeded.sharedA, seeded.sharedB));
      const many = [agentA, ...Array.from({ length: 24 }, newId)];
      expect(ids((await client.list({ ...asA, agentScope: many })).memories)).toEqual(
        sorted(seeded.sharedA, seeded.privateA, seeded.restrictedA),
      );
    });

    it('expands only what the caller may see, in the order asked', async () => {
      const memoryIds = [seeded.sharedB, seeded.privateA, seeded.sharedA, newId()];
      expect((await client.expand({ ...asB, memoryIds })).memories.map((m) => m.id)).toEqual([seeded.sharedB, seeded.sharedA]);
      expect((await client.expand({ ...asA, memoryIds })).memories.map((m) => m.id)).toEqual([
        seeded.sharedB,
        seeded.privateA,
        seeded.sharedA,
      ]);
    });

    it('lists newest first and pages with limit and offset', async () => {
      const all = await client.list({ ...asA });
      expect(all.count).toBe(4);
      expect(all.memories.map((m) => m.id)).toEqual([seeded.sharedB, seeded.restrictedA, seeded.privateA, seeded.sharedA]);
      const page = await client.list({ ...asA, limit: 2, offset: 2 });
      expect(page).toMatchObject({ count: 2, memories: [{ id: seeded.privateA }, { id: seeded.sharedA }] });
    });

    it('keeps user scope and the workspace apart', async () => {
      const personal = await client.ingestQuick({
        userId: user,
        conversation: 'Falcon is also my cat',
        sourceSite: 'home',
        skipExtraction: true,
      });
      const mine = await client.list({ userId: user });
      expect(ids(mine.memories)).toEqual(personal.storedMemoryIds);
      expect(mine.memories[0]).toMatchObject({ workspaceId: null, agentId: null });
      expect(ids((await client.search({ userId: user, query: 'Falcon' })).memories)).toEqual(personal.storedMemoryIds);
      expect(ids((await client.list({ ...asA })).memories)).not.toContain(personal.storedMemoryIds[0]);
      await expect(client.delete({ userId: user, id: seeded.sharedA })).resolves.toEqual({ success: true });
      await expect(client.get({ ...asB, id: seeded.sharedA })).resolves.toMatchObject({ id: seeded.sharedA });
    });
  });

  describe('visibility, grants and deletes', () => {
    it('lets a grant open a restricted memory to agent B until it is revoked', async () => {
      const target = { ...ownerA, id: seeded.restrictedA };
      const grant = await client.grant({ ...target, granteeAgentId: agentB });
      expect(grant).toEqual({ memoryId: seeded.restrictedA, granteeAgentId: agentB, createdAt: expect.stringMatching(ISO), created: true });
      expect((await client.grant({ ...target, granteeAgentId: agentB })).created).toBe(false);
      expect(await client.listGrants(target)).toEqual({ grants: [{ granteeAgentId: agentB, createdAt: grant.createdAt }], count: 1 });

      expect(ids((await client.search({ ...asB, query: 'Falcon' })).memories)).toEqual(
        sorted(seeded.sharedA, seeded.restrictedA, seeded.sharedB),
      );
      await expect(client.get({ ...asB, id: seeded.restrictedA })).resolves.toMatchObject({ visibility: 'restricted' });

      await expect(client.revokeGrant({ ...target, granteeAgentId: agentB })).resolves.toEqual({ success: true });
      expect((await failure(client.get({ ...asB, id: seeded.restrictedA }))).status).toBe(404);
      expect(await failure(client.revokeGrant({ ...target, granteeAgentId: agentB }))).toMatchObject({
        status: 404,
        message: 'Grant not found',
      });
      expect(await client.listGrants(target)).toEqual({ grants: [], count: 0 });
    });

    it('refuses grants to anyone but the owner, and on a memory that is not restricted', async () => {
      expect((await failure(client.grant({ ...ownerB, id: seeded.sharedA, granteeAgentId: agentB }))).status).toBe(403);
      expect((await failure(client.listGrants({ ...ownerB, id: seeded.restrictedA }))).status).toBe(404);
      expect((await failure(client.grant({ ...ownerA, id: seeded.sharedA, granteeAgentId: agentB }))).status).toBe(409);
    });

    it('lets only the owning agent change visibility: 403 when B sees it, 404 when B cannot', async () => {
      const id = await remember(ownerA, 'Falcon budget draft for the third quarter', { visibility: 'agent_only' });
      expect(await failure(client.setVisibility({ ...ownerB, id, visibility: 'workspace' }))).toMatchObject({
        status: 404,
        message: 'Memory not found',
      });
      expect((await failure(client.setVisibility({ ...ownerB, id: seeded.sharedA, visibility: 'agent_only' }))).status).toBe(403);

      const changed = await client.setVisibility({ ...ownerA, id, visibility: 'workspace' });
      expect(changed).toMatchObject({ id, visibility: 'workspace', agentId: agentA });
      await expect(client.get({ ...asB, id })).resolves.toMatchObject({ id });
      await client.delete({ ...asA, id });
    });

    it('soft-deletes: the memory is gone for everyone, and a workspace delete of nothing visible is 404', async () => {
      const id = await remember(ownerA, 'Falcon retro notes to throw away', { visibility: 'agent_only' });
      expect((await failure(client.delete({ ...asB, id }))).status).toBe(404);
      await expect(client.delete({ ...asA, id })).resolves.toEqual({ success: true });
      expect(await failure(client.get({ ...asA, id }))).toMatchObject({ status: 404, message: 'Memory not found' });
      expect((await failure(client.delete({ ...asA, id }))).status).toBe(404);
    });
  });

  describe('changes, history and expiry', () => {
    it('updates content and expiry, reads the history, and sees an expired memory only with includeExpired', async () => {
      const id = await remember(ownerA, 'The standup moved to 9:30');
      const updated = await client.update({ ...ownerA, id, content: 'The standup moved to 10:00', metadata: { room: 'blue' } });
      expect(updated).toMatchObject({ id, content: 'The standup moved to 10:00', metadata: { room: 'blue' }, version: 2, expiresAt: null });
      const refused = await failure(client.update({ ...ownerB, id, content: 'hijacked' }));
      expect(refused.status).toBe(403);
      const history = await client.history({ ...asB, id });
      expect(history.versions.map((v) => [v.version, v.change, v.agentId])).toEqual([
        [1, 'created', agentA],
        [2, 'edited', agentA],
      ]);
      await client.update({ ...ownerA, id, expiresAt: new Date('2020-01-01T00:00:00Z') });
      expect((await failure(client.get({ ...asB, id }))).status).toBe(404);
      expect((await client.get({ ...asB, id, includeExpired: true })).expiresAt).toBe('2020-01-01T00:00:00.000Z');
      expect(ids((await client.list({ ...asB, includeExpired: true, limit: 100 })).memories)).toContain(id);
      const restored = await client.update({ ...ownerA, id, expiresAt: null });
      expect([restored.expiresAt, restored.version]).toEqual([null, 4]);
    });
  });

  describe('lessons', () => {
    const lessonUser = newUser('lessons');
    const PATTERN = 'advice to wire the payroll money to a new offshore account';

    it('fails a matching search closed after a critical lesson, and opens it again once retired', async () => {
      const stored = await client.ingestQuick({
        userId: lessonUser,
        conversation: 'Payroll runs on the 25th of each month',
        sourceSite: 'hr',
        skipExtraction: true,
      });
      const memoryId = stored.storedMemoryIds[0];
      const { lessonId } = await client.reportLesson({
        userId: lessonUser,
        pattern: PATTERN,
        sourceMemoryIds: [memoryId],
        severity: 'critical',
      });
      expect(lessonId).toMatch(UUID);

      const workspaceOfLessonUser: SearchOptions = { userId: lessonUser, workspaceId: newId(), agentId: newId(), query: PATTERN };
      for (const blocked of [
        await client.search({ userId: lessonUser, query: PATTERN }),
        await client.searchFast({ userId: lessonUser, query: PATTERN }),
        await client.search(workspaceOfLessonUser),
      ]) {
        expect(blocked).toMatchObject({ memories: [], count: 0, citations: [], injectionText: '' });
        expect(blocked.lessonCheck).toEqual({
          safe: false,
          warnings: [expect.stringMatching(/^\[critical\] user_reported: advice to wire/)],
          highestSeverity: 'critical',
          matchedCount: 1,
        });
      }
      const unrelated = await client.search({ userId: lessonUser, query: 'when does payroll run' });
      expect(unrelated.lessonCheck).toMatchObject({ safe: true, highestSeverity: 'none' });
      expect(ids(unrelated.memories)).toEqual([memoryId]);

      const listed = await client.listLessons({ userId: lessonUser });
      expect(listed.count).toBe(1);
      expect(listed.lessons[0]).toEqual({
        id: lessonId,
        userId: lessonUser,
        lessonType: 'user_reported',
        pattern: PATTERN,
        embedding: expect.any(Array),
        sourceMemoryIds: [memoryId],
        sourceQuery: null,
        severity: 'critical',
        active: true,
        metadata: expect.any(Object),
        createdAt: expect.stringMatching(ISO),
      });
      const stats = await client.lessonStats({ userId: lessonUser });
      expect(stats.totalActive).toBe(1);
      expect(stats.byType[listed.lessons[0].lessonType]).toBe(1);
      expect(stats.byType).toMatchObject({ user_reported: 1, injection_blocked: 0 });

      await expect(client.retireLesson({ userId: lessonUser, id: lessonId as string })).resolves.toEqual({ success: true });
      const reopened = await client.search({ userId: lessonUser, query: PATTERN });
      expect(reopened.lessonCheck).toMatchObject({ safe: true, matchedCount: 0 });
      expect(reopened.memories.length).toBeGreaterThan(0);
      await expect(client.listLessons({ userId: lessonUser })).resolves.toEqual({ lessons: [], count: 0 });
      await expect(client.lessonStats({ userId: lessonUser })).resolves.toMatchObject({ totalActive: 0 });
      expect(await failure(client.retireLesson({ userId: lessonUser, id: lessonId as string }))).toMatchObject({
        status: 404,
        message: 'Lesson not found',
      });
      expect((await failure(client.retireLesson({ userId: newUser('other'), id: newId() }))).status).toBe(404);
    });

    it('warns about a high lesson but still returns memories', async () => {
      const warnedUser = newUser('warned');
      await client.ingestQuick({
        userId: warnedUser,
        conversation: 'The office plants need water on Fridays',
        sourceSite: 'home',
        skipExtraction: true,
      });
      await client.reportLesson({ userId: warnedUser, pattern: 'office plants need water on Fridays' });
      const result = await client.search({ userId: warnedUser, query: 'office plants need water on Fridays' });
      expect(result.lessonCheck).toMatchObject({ safe: true, highestSeverity: 'high', matchedCount: 1 });
      expect(result.count).toBe(1);
    });
  });

  describe('agents', () => {
    it('reads the default trust, sets it and reads it back', async () => {
      const agentId = newId();
      await expect(client.getAgentTrust({ userId: user, agentId })).resolves.toEqual({ agentId, trustLevel: 0.5 });
      await expect(client.setAgentTrust({ userId: user, agentId, trustLevel: 0.8, displayName: 'planner' })).resolves.toEqual({
        agentId,
        trustLevel: 0.8,
        displayName: 'planner',
      });
      await expect(client.getAgentTrust({ userId: user, agentId })).resolves.toEqual({ agentId, trustLevel: 0.8 });
    });
  });

  describe('errors', () => {
    it("types a 400 with the server's message and request id", async () => {
      const error = await failure(client.search({ ...asA, query: '' }));
      expect(error).toMatchObject({
        name: 'AtriumError',
        status: 400,
        message: 'query must be 1 to 10000 characters',
        method: 'POST',
        path: '/v1/memories/search',
      });
      expect(error.requestId).toMatch(UUID);
      expect(error.body).toEqual({ error: 'query must be 1 to 10000 characters' });
    });

    it('passes the scope errors through (inputs the types refuse, sent anyway)', async () => {
      const noAgent = { userId: user, workspaceId } as unknown as WorkspaceScopeInput;
      expect((await failure(client.list(noAgent))).message).toBe('agent_id is required for workspace queries');
      expect((await failure(client.list({ userId: '' }))).message).toBe('user_id (string) is required');
      expect((await failure(client.get({ ...asA, id: 'not-a-uuid' }))).message).toBe('id must be a valid UUID');
      const badSeverity = { userId: user, pattern: 'p', severity: 'urgent' } as unknown as Parameters<AtriumClient['reportLesson']>[0];
      expect((await failure(client.reportLesson(badSeverity))).message).toBe('severity must be one of low, medium, high, critical');
    });

    it('answers 404 for an unknown memory exactly like for an invisible one', async () => {
      const unknown = await failure(client.get({ ...asB, id: newId() }));
      const invisible = await failure(client.get({ ...asB, id: seeded.privateA }));
      expect([unknown.status, unknown.message]).toEqual([404, 'Memory not found']);
      expect([invisible.status, invisible.message]).toEqual([404, 'Memory not found']);
    });
  });
});
