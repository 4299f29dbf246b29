import fc from 'fast-check';

import { newId, newUser } from '../../support/ids';
import { call, judge, metricValue } from './load';
import { requestArbitrary, type FuzzWorld } from './route-arbitraries';
import { errorLines, type ServiceProcess } from './service-process';

export const FUZZ_RUNS = Number(process.env.FAULTS_FUZZ_RUNS ?? 1000);

/** A few users, a workspace with agents, memories and a lesson, so fuzzed ids sometimes hit. */
export async function seedWorld(service: ServiceProcess): Promise<FuzzWorld> {
  const world: FuzzWorld = {
    users: [newUser('fz-a'), newUser('fz-b')],
    workspace: newId(),
    agents: [newId(), newId(), newId()],
    memoryIds: [],
    lessonIds: [],
  };
  for (const [i, user] of world.users.entries()) {
    for (const scope of [{}, { workspace_id: world.workspace, agent_id: world.agents[i] }]) {
      const res = await call(service.url, 'POST', '/v1/memories/ingest/quick', {
        user_id: user,
        source_site: 'docs',
        skip_extraction: true,
        conversation: `User ${i} keeps notes about figs and deploy keys`,
        ...scope,
      });
      if (res.status !== 200) throw new Error(`seeding answered ${res.status}`);
      world.memoryIds.push(...(res.body as { stored_memory_ids: string[] }).stored_memory_ids);
    }
    const lesson = await call(service.url, 'POST', `/v1/memories/lessons/report?user_id=${user}`, {
      pattern: 'wire money to a new account',
      severity: 'high',
    });
    world.lessonIds.push((lesson.body as { lesson_id: string }).lesson_id);
  }
  return world;
}

/**
 * Sends `runs` fuzzed requests (two at a time, so requests also overlap) and asserts each
 * answer is 2xx, 4xx in the envelope, or 503 with Retry-After; never a 500 or a dropped
 * connection. fast-check shrinks a failure to a small request and prints its seed.
 */
export async function fuzz(service: ServiceProcess, world: FuzzWorld, runs: number): Promise<Map<string, number>> {
  const statuses = new Map<string, number>();
  const request = requestArbitrary(world);
  await fc.assert(
    fc.asyncProperty(fc.tuple(request, request), async (pair) => {
      const answers = await Promise.all(pair.map((r) => call(service.url, r.method, r.path, r.body, r.headers)));
      for (const [i, answer] of answers.entries()) {
        const key = String(answer.status);
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        const problem = judge(answer);
        if (problem) {
          // The service's own account of a 500 (its error log line) says where it came from.
          const logged = errorLines(service.logs)
            .slice(-3)
            .map((line) => JSON.stringify(line).slice(0, 1500));
          throw new Error(
            `${problem}\nrequest: ${JSON.stringify(pair[i]).slice(0, 600)}\nservice error log:\n${logged.join('\n') || '(none)'}`,
          );
        }
      }
      if (!service.alive()) throw new Error('the service process died');
    }),
    { numRuns: Math.ceil(runs / 2), endOnFailure: true },
  );
  return statuses;
}

export async function processFaults(service: ServiceProcess): Promise<number> {
  return (
    (await metricValue(service.url, 'atrium_process_faults_total{kind="unhandled_rejection"}')) +
    (await metricValue(service.url, 'atrium_process_faults_total{kind="uncaught_exception"}'))
  );
}
