/**
 * Writes one benchmark target (its callers, with the memory ids they see) of a kept database as
 * JSON, for bench/ab.ts --target-file-a/-b when the two sides' schemas differ. Compiled into an
 * older build's dist/bench (its own callers.js reads its own schema):
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/dump-target.js \
 *     atrium_bench_... user/small /tmp/target.json [scale] [seed]
 */
import { writeFileSync } from 'node:fs';

import { loadTargets } from './callers';
import { planCorpus } from './corpus';
import { createBenchDatabase } from './database';

async function main(): Promise<void> {
  const [name, wanted, file, scale = '0.02', seed = '42'] = process.argv.slice(2);
  if (!name || !wanted || !file) throw new Error('usage: dump-target <database> <scope/size> <file.json> [scale] [seed]');
  const db = await createBenchDatabase('postgres', process.env.DATABASE_URL, 384, name);
  const { dataSource } = await db.open();
  try {
    const target = (await loadTargets(dataSource, planCorpus(Number(scale), Number(seed)))).find((t) => `${t.scope}/${t.size}` === wanted);
    if (!target) throw new Error(`no target ${wanted} in ${name}`);
    writeFileSync(file, JSON.stringify(target));
    console.log(`${wanted}: ${target.callers.length} callers written to ${file}`);
  } finally {
    await db.closeConnections();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
