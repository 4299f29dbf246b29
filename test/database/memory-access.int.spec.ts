import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { MemoryAccess } from '../../src/database/access/memory-access';
import { VISIBILITY_MODES } from '../../src/database/access/visibility';
import { createTestApp, type TestApp } from '../support/test-app';

/** MemoryAccess against a real database: the statement guard and the schema's idea of the modes. */
describe('MemoryAccess', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses lesson SQL that does not bind user_id = $1, before sending it', async () => {
    const access = t.app.get(MemoryAccess);
    await expect(access.userQuery('u1', 'SELECT id FROM lessons')).rejects.toThrow(/does not bind user_id = \$1/);
    await expect(access.userQuery('u1', 'SELECT id FROM lessons WHERE user_id = $2', ['x'])).rejects.toThrow(/user_id = \$1/);
    await expect(access.userQuery('u1', 'SELECT count(*)::int AS n FROM lessons WHERE user_id = $1')).resolves.toEqual([{ n: 0 }]);
  });

  it('refuses SQL on any table but lessons, even with user_id = $1 (hole 2 of issue 21)', async () => {
    const access = t.app.get(MemoryAccess);
    // Every agent's private and deleted rows of that user, before: now refused before it is sent.
    await expect(access.userQuery('u1', 'SELECT * FROM memories WHERE user_id = $1')).rejects.toThrow(/reaches memories: lessons only/);
    await expect(access.userQuery('u1', 'select * from "memories" where user_id = $1')).rejects.toThrow(/reaches memories/);
  });

  it('the memories CHECK constraint allows exactly VISIBILITY_MODES', async () => {
    const rows: { def: string }[] = await t.dataSource.query(
      `SELECT pg_get_constraintdef(c.oid) AS def FROM pg_constraint c
        WHERE c.conrelid = 'memories'::regclass AND c.contype = 'c' AND pg_get_constraintdef(c.oid) ~ 'visibility (= ANY|IN)'`,
    );
    expect(rows).toHaveLength(1);
    const allowed = [...rows[0].def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]).sort();
    expect(allowed).toEqual([...VISIBILITY_MODES].sort());
  });

  it('a transaction applies its settings for that transaction only', async () => {
    const access = t.app.get(MemoryAccess);
    const setting = "SELECT current_setting('enable_sort') AS v, count(*)::int AS n FROM lessons WHERE user_id = $1";
    const inside = await access.transaction(async (tx) => tx.userQuery<{ v: string }>('u1', setting), { enable_sort: 'off' });
    expect(inside).toEqual([{ v: 'off', n: 0 }]);
    expect(await access.userQuery('u1', setting)).toEqual([{ v: 'on', n: 0 }]);
  });

  it('names every table keyed by user_id in eslint.one-door.mjs: a tenant table, or outside the door with its reason', async () => {
    const rows: { name: string }[] = await t.dataSource.query(
      `SELECT DISTINCT c.relname AS name
         FROM pg_class c
         JOIN pg_namespace n ON n.oid = c.relnamespace
         JOIN pg_attribute a ON a.attrelid = c.oid
        WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition
          AND a.attname = 'user_id' AND NOT a.attisdropped`,
    );
    const config = readFileSync(join(__dirname, '..', '..', 'eslint.one-door.mjs'), 'utf8');
    const tenant = /export const TENANT_TABLES = \[([^\]]*)\]/.exec(config)?.[1].match(/[a-z_]+/g) ?? [];
    const outside = [...config.matchAll(/\{ table: '([a-z_]+)', reason: '[^']+' \}|\{ table: '([a-z_]+)', reason: "[^"]+" \}/g)].map(
      (m) => m[1] ?? m[2],
    );
    expect(tenant).toContain('memories');
    expect(outside).toContain('api_keys');
    expect(rows.map((r) => r.name).sort()).toEqual([...tenant, ...outside].sort());
  });
});
