/**
 * An agent workflow end to end, with the typed client: two agents in one workspace, a private
 * memory, a restricted memory shared by a grant, searches from each agent, and a lesson.
 *
 *   npm start                      # in one terminal (embedded database)
 *   npm run example:workflow       # in another; ATRIUM_URL defaults to http://localhost:3050
 */
import { randomUUID } from 'node:crypto';

import { AtriumClient } from '../src/client';

export async function runWorkflow(baseUrl: string, log: (line: string) => void = console.log): Promise<Record<string, unknown>> {
  const atrium = new AtriumClient({ baseUrl });
  const userId = `demo-${randomUUID().slice(0, 8)}`;
  const workspaceId = randomUUID();
  const planner = { userId, workspaceId, agentId: randomUUID() };
  const researcher = { userId, workspaceId, agentId: randomUUID() };

  // 1. The planner writes a shared memory, a private one, and a restricted one.
  const shared = await atrium.ingestQuick({
    ...planner,
    sourceSite: 'planner',
    skipExtraction: true,
    conversation: 'The offsite is in Porto on 12 March',
  });
  const secret = await atrium.ingestQuick({
    ...planner,
    sourceSite: 'planner',
    skipExtraction: true,
    visibility: 'agent_only',
    conversation: 'Draft offsite budget is 40k euros, not approved yet',
  });
  const restricted = await atrium.ingestQuick({
    ...planner,
    sourceSite: 'planner',
    skipExtraction: true,
    visibility: 'restricted',
    conversation: 'The offsite venue contract is with Casa do Rio',
  });
  log(`planner stored ${[shared, secret, restricted].map((r) => r.storedMemoryIds[0]).join(', ')}`);

  // 2. What the researcher sees before and after a grant.
  const before = await atrium.search({ ...researcher, query: 'offsite', limit: 10 });
  log(`researcher sees ${before.count} memory before the grant: ${before.memories.map((m) => m.content).join(' | ')}`);
  await atrium.grant({ ...planner, id: restricted.storedMemoryIds[0], granteeAgentId: researcher.agentId });
  const after = await atrium.search({ ...researcher, query: 'offsite', limit: 10 });
  log(`researcher sees ${after.count} memories after the grant: ${after.memories.map((m) => m.content).join(' | ')}`);
  const own = await atrium.search({ ...planner, query: 'offsite budget', agentScope: 'self', limit: 10 });
  log(`planner sees its own ${own.count} memories, the private budget included`);

  // 3. A lesson: the user reports a pattern as critical; a matching search now fails closed.
  const { lessonId } = await atrium.reportLesson({ userId, pattern: 'offsite venue contract', severity: 'critical' });
  const blocked = await atrium.search({ ...researcher, query: 'offsite venue contract' });
  log(
    `lesson ${lessonId}: search safe=${blocked.lessonCheck?.safe}, ${blocked.count} memories, warning: ${blocked.lessonCheck?.warnings[0]}`,
  );
  await atrium.retireLesson({ userId, id: lessonId as string });
  const again = await atrium.search({ ...researcher, query: 'offsite venue contract' });
  log(`after retiring the lesson: safe=${again.lessonCheck?.safe}, ${again.count} memories`);

  return {
    before: before.count,
    after: after.count,
    own: own.count,
    blockedSafe: blocked.lessonCheck?.safe,
    blockedCount: blocked.count,
    againSafe: again.lessonCheck?.safe,
  };
}

if (require.main === module) {
  runWorkflow(process.env.ATRIUM_URL ?? 'http://localhost:3050').catch((error: Error) => {
    console.error(error.message);
    process.exit(1);
  });
}
