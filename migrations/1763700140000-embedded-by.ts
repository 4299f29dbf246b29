import type { MigrationInterface, QueryRunner } from 'typeorm';

import { migrationContext } from './migration-context';

/**
 * Every vector records the embedder that made it (`embedded_by`, src/embeddings/embedding-identity.ts).
 * Rows that exist when this runs were made by the embedder configured now (the only one the
 * database could check them against so far), so that is the column default. A constant
 * default is stored once in the catalogue, not written into each row, so adding it to a large
 * table is instant. Atrium's own writes always set the column; the default only names the rows
 * written before, and rows inserted by hand (tests, benchmark seeding).
 */
export class EmbeddedBy1763700140000 implements MigrationInterface {
  name = 'EmbeddedBy1763700140000';

  async up(runner: QueryRunner): Promise<void> {
    const identity = migrationContext.embeddingIdentity.replaceAll("'", "''");
    for (const table of ['memories', 'lessons']) {
      await runner.query(`ALTER TABLE ${table} ADD COLUMN embedded_by text NOT NULL DEFAULT '${identity}'`);
    }
  }

  async down(runner: QueryRunner): Promise<void> {
    for (const table of ['memories', 'lessons']) await runner.query(`ALTER TABLE ${table} DROP COLUMN embedded_by`);
  }
}
