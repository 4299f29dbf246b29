import { existsSync } from 'node:fs';

import { DataSource } from 'typeorm';

import { configuredIdentity } from '../embeddings/embedding-identity';
import { loadEnv } from '../env/env.schema';
import { buildDataSourceOptions } from './data-source.options';
import { closeDatabaseTarget, openDatabaseTarget } from './database-target';
import { prepareDatabase } from './prepare-database';

/** `npm run migrate` (up, the default), `npm run migrate:down` (revert the last one), `status`. */
async function main(command: string): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const env = loadEnv(process.env);
  const target = await openDatabaseTarget(env);
  const dataSource = new DataSource(buildDataSourceOptions(target, env, 'direct'));
  try {
    await dataSource.initialize();
    switch (command) {
      case 'up':
        await prepareDatabase(dataSource, {
          where: target.description,
          embeddingDimensions: env.EMBEDDING_DIMENSIONS,
          embeddingIdentity: configuredIdentity(env),
        });
        console.log(`migrations applied on ${target.description}`);
        break;
      case 'down':
        await dataSource.undoLastMigration({ transaction: 'each' });
        console.log(`last migration reverted on ${target.description}`);
        break;
      case 'status': {
        const pending = await dataSource.showMigrations();
        console.log(pending ? 'there are pending migrations' : 'up to date');
        break;
      }
      default:
        throw new Error(`unknown command "${command}" (use up, down or status)`);
    }
  } finally {
    if (dataSource.isInitialized) await dataSource.destroy();
    await closeDatabaseTarget(target);
  }
}

main(process.argv[2] ?? 'up').catch((error: Error) => {
  process.stderr.write(`migrate: ${error.message}\n`);
  process.exit(1);
});
