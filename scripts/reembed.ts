/**
 * `npm run reembed [-- --batch-size 256]`: re-embeds every stored vector (memories and
 * lessons) with the configured embedder (EMBEDDING_PROVIDER, EMBEDDING_MODEL,
 * EMBEDDING_DIMENSIONS and the rest, from the environment or .env), in batches, with a
 * progress bar. Resumable: stop it (Ctrl-C finishes the current batch) and run it again.
 *
 * On PostgreSQL the service can keep serving on its old configuration meanwhile; restart it
 * with the new one when this has finished (startup refuses while any row is still another
 * embedder's, so rows the old instance wrote in the meantime are caught: run this again).
 * The embedded database admits one process at a time: stop the service first.
 */
import { existsSync } from 'node:fs';

import { DataSource } from 'typeorm';

import { buildDataSourceOptions } from '../src/database/data-source.options';
import { closeDatabaseTarget, openDatabaseTarget } from '../src/database/database-target';
import { reembed, type ReembedProgress } from '../src/database/maintenance/reembed';
import { prepareDatabase } from '../src/database/prepare-database';
import { createEmbeddingProvider } from '../src/embeddings/create-embedding-provider';
import { configuredIdentity } from '../src/embeddings/embedding-identity';
import { loadEnv } from '../src/env/env.schema';

function batchSizeArg(argv: string[]): number {
  const i = argv.indexOf('--batch-size');
  if (i < 0) return 256;
  const n = Number(argv[i + 1]);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error('--batch-size must be an integer from 1 to 10000');
  return n;
}

function progressPrinter(): (p: ReembedProgress) => void {
  const started = Date.now();
  let lastLine = 0;
  return (p) => {
    const fraction = p.total === 0 ? 1 : Math.min(1, p.done / p.total);
    const width = 30;
    const filled = Math.round(fraction * width);
    const rate = p.done / Math.max(0.001, (Date.now() - started) / 1000);
    const line = `${p.table.padEnd(8)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(0).padStart(3)}% ${p.done}/${p.total} rows, ${rate.toFixed(0)} rows/s`;
    if (process.stderr.isTTY) {
      process.stderr.write(`\r${line}${p.done === p.total ? '\n' : ''}`);
    } else if (p.done === p.total || Date.now() - lastLine > 2000) {
      process.stderr.write(`${line}\n`);
      lastLine = Date.now();
    }
  };
}

async function main(): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = loadEnv(process.env);
  const batchSize = batchSizeArg(process.argv.slice(2));
  let stopping = false;
  process.once('SIGINT', () => {
    stopping = true;
    process.stderr.write('\nstopping after this batch; run `npm run reembed` again to resume\n');
  });
  const provider = await createEmbeddingProvider({
    provider: env.EMBEDDING_PROVIDER,
    dimensions: env.EMBEDDING_DIMENSIONS,
    model: env.EMBEDDING_MODEL,
    baseUrl: env.EMBEDDING_BASE_URL,
    apiKey: env.EMBEDDING_API_KEY,
    timeoutMs: env.EMBEDDING_TIMEOUT_MS,
    cacheDir: env.EMBEDDINGS_CACHE_DIR,
  });
  const target = await openDatabaseTarget(env);
  const dataSource = new DataSource(buildDataSourceOptions(target, env));
  try {
    await dataSource.initialize();
    await prepareDatabase(dataSource, {
      where: target.description,
      embeddingDimensions: env.EMBEDDING_DIMENSIONS,
      embeddingIdentity: configuredIdentity(env),
      checkIdentity: false,
    });
    const result = await reembed(dataSource, provider, { batchSize, shouldStop: () => stopping, onProgress: progressPrinter() });
    console.log(
      result.complete
        ? `re-embedded ${result.updated} rows; every stored vector is now ${result.identity}`
        : `stopped after ${result.updated} rows; run \`npm run reembed\` again to finish`,
    );
    if (!result.complete) process.exitCode = 2;
  } finally {
    await provider.close?.();
    if (dataSource.isInitialized) await dataSource.destroy();
    await closeDatabaseTarget(target);
  }
}

main().catch((error: Error) => {
  process.stderr.write(`reembed: ${error.message}\n`);
  process.exit(1);
});
