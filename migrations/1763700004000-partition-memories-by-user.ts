import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Hash partitions of `memories` by user_id. */
const PARTITIONS = 16;

/**
 * `memories` becomes a table partitioned by HASH (user_id), 16 partitions, each with its own
 * indexes, the HNSW one included.
 *
 * Why (docs/benchmarks.md has the figures): every query names one user_id (the scope), so it
 * reads one partition. A vector search over a large scope then walks an HNSW graph of one
 * partition instead of the whole table: at 1M memories the single graph reached recall@10
 * 0.99 for the largest user only at ef_search 1000 (36 ms), the user's rows being a few
 * percent of what the graph returned; partitioned, the same user's HNSW query took 9.7 ms
 * instead of 13.8 at recall 1.0, and the index built in 347 s instead of 479 s. Smaller
 * graphs also make each insert cheaper. Hash, not
 * list: list partitions for the largest users need a partition created (and rows moved) as a
 * user grows; hash needs no upkeep, and a very large user still dominates its partition.
 *
 * Consequences: the primary key is (id, user_id) (a partitioned table's unique keys must
 * include the partition key; ids are random UUIDs), and grants reference (memory_id,
 * user_id). The table's storage options (fillfactor) carry over to every partition. Existing
 * rows are copied, so on a large table this migration takes minutes and locks the table.
 */
export class PartitionMemoriesByUser1763700004000 implements MigrationInterface {
  name = 'PartitionMemoriesByUser1763700004000';

  async up(runner: QueryRunner): Promise<void> {
    await rebuildMemories(runner, 'partitioned');
  }

  async down(runner: QueryRunner): Promise<void> {
    await rebuildMemories(runner, 'plain');
  }
}

async function rebuildMemories(runner: QueryRunner, target: 'partitioned' | 'plain'): Promise<void> {
  const indexes: { name: string; definition: string }[] = await runner.query(
    `SELECT i.relname AS name, pg_get_indexdef(i.oid) AS definition
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = 'public.memories'::regclass AND NOT x.indisprimary`,
  );
  const [{ options }]: { options: string[] | null }[] = await runner.query(
    // a partitioned parent has no storage of its own: take the options of a partition then
    `SELECT COALESCE(
              (SELECT c.reloptions FROM pg_class c WHERE c.oid = 'public.memories'::regclass AND c.relkind = 'r'),
              (SELECT c.reloptions FROM pg_inherits h JOIN pg_class c ON c.oid = h.inhrelid
                WHERE h.inhparent = 'public.memories'::regclass LIMIT 1)) AS options`,
  );
  const storage = options?.length ? ` WITH (${options.join(', ')})` : '';
  const columns: { name: string }[] = await runner.query(
    `SELECT quote_ident(attname) AS name FROM pg_attribute
      WHERE attrelid = 'public.memories'::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
      ORDER BY attnum`,
  );
  const list = columns.map((c) => c.name).join(', ');

  await runner.query('ALTER TABLE memory_visibility_grants DROP CONSTRAINT IF EXISTS memory_visibility_grants_memory_id_fkey');
  await runner.query('ALTER TABLE memory_visibility_grants DROP CONSTRAINT IF EXISTS memory_visibility_grants_memory_fkey');
  for (const index of indexes) await runner.query(`DROP INDEX ${quoteIdent(index.name)}`);
  await runner.query('ALTER TABLE memories RENAME TO memories_old');
  await runner.query('ALTER TABLE memories_old RENAME CONSTRAINT memories_pkey TO memories_old_pkey');

  const like = 'LIKE memories_old INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING GENERATED INCLUDING STORAGE';
  if (target === 'partitioned') {
    await runner.query(`CREATE TABLE memories (${like}) PARTITION BY HASH (user_id)`);
    await runner.query('ALTER TABLE memories ADD CONSTRAINT memories_pkey PRIMARY KEY (id, user_id)');
    for (let i = 0; i < PARTITIONS; i++) {
      const name = `memories_p${String(i).padStart(2, '0')}`;
      await runner.query(`CREATE TABLE ${name} PARTITION OF memories FOR VALUES WITH (MODULUS ${PARTITIONS}, REMAINDER ${i})${storage}`);
    }
  } else {
    await runner.query(`CREATE TABLE memories (${like})${storage}`);
    await runner.query('ALTER TABLE memories ADD CONSTRAINT memories_pkey PRIMARY KEY (id)');
  }
  await runner.query(`INSERT INTO memories (${list}) SELECT ${list} FROM memories_old`);
  await runner.query('DROP TABLE memories_old');
  // pg_get_indexdef says "ON ONLY" for a partitioned table's index, which would not cascade
  for (const index of indexes) await runner.query(index.definition.replace(' ON ONLY ', ' ON '));
  await runner.query(
    target === 'partitioned'
      ? `ALTER TABLE memory_visibility_grants ADD CONSTRAINT memory_visibility_grants_memory_fkey
           FOREIGN KEY (memory_id, user_id) REFERENCES memories (id, user_id) ON DELETE CASCADE`
      : `ALTER TABLE memory_visibility_grants ADD CONSTRAINT memory_visibility_grants_memory_id_fkey
           FOREIGN KEY (memory_id) REFERENCES memories (id) ON DELETE CASCADE`,
  );
  await runner.query('ANALYZE memories');
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
