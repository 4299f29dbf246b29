import { existsSync } from 'node:fs';

import { Client } from 'pg';

import { loadEnv } from '../../env/env.schema';
import { existingTenantGraphs, largeScopes, reconcileTenantGraphs, tenantGraphName } from './tenant-graphs';

/**
 * `npm run db:tenant-graphs` builds and drops the tenant graphs now (what each instance does
 * every TENANT_GRAPH_INTERVAL_S), e.g. after a bulk import or with the interval at 0;
 * `npm run db:tenant-graphs -- status` lists the large scopes and their graphs without
 * changing anything. `--min-rows N` overrides TENANT_GRAPH_MIN_ROWS. PostgreSQL only.
 */
async function main(args: string[]): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = loadEnv(process.env);
  const url = env.DATABASE_DIRECT_URL ?? env.DATABASE_URL;
  if (!url) throw new Error('tenant graphs are for PostgreSQL: set DATABASE_URL (the embedded database does not use them)');
  const minIndex = args.indexOf('--min-rows');
  const minRows = minIndex >= 0 ? Number(args[minIndex + 1]) : env.TENANT_GRAPH_MIN_ROWS;
  if (!Number.isInteger(minRows) || minRows < 0) throw new Error('--min-rows must be a whole number, 0 or more');
  const client = new Client({ connectionString: url, application_name: 'atrium-tenant-graphs' });
  await client.connect();
  try {
    await client.query("SELECT set_config('statement_timeout', '0', false)");
    if (args[0] === 'status') {
      const graphs = await existingTenantGraphs(client);
      const scopes = minRows > 0 ? await largeScopes(client, minRows) : [];
      for (const scope of scopes) {
        const graph = graphs.get(tenantGraphName(scope));
        const where = scope.workspaceId === null ? `user ${scope.userId}` : `user ${scope.userId} workspace ${scope.workspaceId}`;
        console.log(
          `${where}: ${scope.liveRows} live memories, ${graph ? (graph.valid ? `graph ${graph.name}` : `graph ${graph.name} INVALID`) : 'no graph'}`,
        );
      }
      console.log(`${scopes.length} scopes with at least ${minRows} live memories; ${graphs.size} tenant graphs`);
      return;
    }
    const started = Date.now();
    const result = await reconcileTenantGraphs(client, {
      minRows,
      maintenanceWorkMem: env.TENANT_GRAPH_BUILD_MEMORY,
      onChange: (change) => {
        if (change.action === 'built')
          console.log(`built ${change.name} (${change.liveRows} live memories) in ${((change.ms ?? 0) / 1000).toFixed(1)} s`);
        if (change.action === 'drop') console.log(`dropped ${change.name}`);
      },
    });
    if (!result.ran) throw new Error('another instance is reconciling the tenant graphs now; try again when it is done');
    console.log(
      `tenant graphs: ${result.built.length} built, ${result.dropped.length} dropped, ${result.kept.length} kept (${((Date.now() - started) / 1000).toFixed(1)} s)`,
    );
  } finally {
    await client.end();
  }
}

main(process.argv.slice(2)).catch((error: Error) => {
  process.stderr.write(`tenant-graphs: ${error.message}\n`);
  process.exit(1);
});
