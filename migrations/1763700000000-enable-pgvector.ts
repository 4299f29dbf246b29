import type { MigrationInterface, QueryRunner } from 'typeorm';

/** pgvector is checked (and created when possible) before migrations run; this records it. */
export class EnablePgvector1763700000000 implements MigrationInterface {
  name = 'EnablePgvector1763700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE EXTENSION IF NOT EXISTS vector');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP EXTENSION IF EXISTS vector');
  }
}
