/**
 * The generic plans of the record reads (get, list, expand; MemoryAccess.records) on a kept
 * benchmark database: each shape runs as a named prepared statement on a statement pool
 * (plan_cache_mode = force_generic_plan), then EXPLAIN ANALYZE EXECUTE shows the plan it
 * keeps, which must prune to the caller's partition at run time and read it through an index.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/generic-plans.js --reuse atrium_bench_...
 */
import type { MemoryScope } from '../src/common/scope/memory-scope';
import { MemoryAccess } from '../src/database/access/memory-access';
import { openStatementPool } from '../src/database/access/statement-pool';
import { MemoriesRepository } from '../src/memories/memories.repository';
import { createBenchDatabase } from './database';
import { QueryRecorder } from './plans';

async function main(): Promise<void> {
  const reuse = process.argv[process.argv.indexOf('--reuse') + 1];
  if (!process.argv.includes('--reuse') || !reuse) throw new Error('--reuse <atrium_bench_...> is required');
  const db = await createBenchDatabase('postgres', process.env.DATABASE_URL, 384, reuse);
  const recorder = new QueryRecorder();
  const { dataSource } = await db.open(recorder);
  const pool = openStatementPool(dataSource, { max: 1 });
  try {
    const [u]: { user_id: string; n: number }[] = await dataSource.query(
      'SELECT user_id, count(*)::int AS n FROM memories WHERE workspace_id IS NULL GROUP BY 1 ORDER BY 2 DESC LIMIT 1',
    );
    const [w]: { user_id: string; workspace_id: string; agent_id: string; n: number }[] = await dataSource.query(
      'SELECT user_id, workspace_id, agent_id, count(*)::int AS n FROM memories WHERE workspace_id IS NOT NULL GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 1',
    );
    const scopes: { label: string; scope: MemoryScope }[] = [
      { label: `user scope, ${u.n} rows`, scope: { kind: 'user', userId: u.user_id } },
      {
        label: 'workspace scope, agent_scope=all',
        scope: { kind: 'workspace', userId: w.user_id, workspaceId: w.workspace_id, agentId: w.agent_id, agentScope: { kind: 'all' } },
      },
    ];
    const repository = new MemoriesRepository(new MemoryAccess(dataSource, undefined, { statementPool: pool }));
    for (const { label, scope } of scopes) {
      const page = await repository.listVisible(scope, { limit: 20, offset: 0 });
      const ids = page.slice(0, 5).map((r) => r.memory.id);
      const reads: [string, () => Promise<unknown>][] = [
        ['get', () => repository.findVisibleById(scope, ids[3])],
        ['list (limit 20, offset 0)', () => repository.listVisible(scope, { limit: 20, offset: 0 })],
        ['expand (5 ids)', () => repository.findVisibleByIds(scope, ids)],
      ];
      for (const [route, read] of reads) {
        for (let i = 0; i < 5; i++) await read();
        const [last] = (await recorder.capture(read)).slice(-1);
        // the pool's one connection, where the reads prepared their statements
        const client = await pool.connect();
        try {
          const [prepared] = (
            await client.query<{ name: string; generic_plans: string; custom_plans: string }>(
              'SELECT name, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement = $1',
              [last.sql],
            )
          ).rows;
          const args = last.parameters.map((v) => client.escapeLiteral(Array.isArray(v) ? `{${v.join(',')}}` : String(v)));
          const plan = await client.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) EXECUTE ${prepared.name}(${args.join(', ')})`,
          );
          console.log(`#### ${route}, ${label}: generic plans ${prepared.generic_plans}, custom plans ${prepared.custom_plans}\n`);
          console.log('```');
          console.log(plan.rows.map((r) => r['QUERY PLAN']).join('\n'));
          console.log('```\n');
        } finally {
          client.release();
        }
      }
    }
  } finally {
    await pool.end();
    await db.closeConnections();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
