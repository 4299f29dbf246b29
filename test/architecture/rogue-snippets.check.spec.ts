import { join } from 'node:path';

import { ESLint } from 'eslint';

import { compileWith } from '../support/compile-snippets';

/**
 * The seven holes of issue 21, each as a rogue snippet that used to compile and pass lint and
 * would have reached other tenants' rows. Each must now fail to compile (tsc, on the snippet as
 * a file of src/) or fail lint (the one rule list of eslint.one-door.mjs), and for the expected
 * reason: the test names the diagnostic or rule message it must see. Each rogue has a twin that
 * does the same job the allowed way and must pass both, so a snippet cannot fail by accident
 * (a typo, a wrong import path).
 */
const ROOT = join(__dirname, '..', '..');

interface Snippet {
  /** Where the snippet pretends to live (it decides the lint group and the relative imports). */
  path: string;
  code: string;
}

interface Hole {
  rogue: Snippet;
  /** The compiler diagnostic it must fail with (code and message), or none. */
  tsc?: { code: number; message: RegExp };
  /** The lint message it must fail with (no-restricted-syntax / no-restricted-imports), or none. */
  lint?: RegExp;
  fine: Snippet;
}

const ACCESS = `import type { MemoryAccess } from '../database/access/memory-access';
import type { MemoryScope } from '../common/scope/memory-scope';`;

const HOLES: Record<string, Hole> = {
  '1. .where() on a scoped builder replaces the visibility predicate': {
    rogue: {
      path: 'src/memories/rogue-1.repository.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope, id: string) =>
  access.memories(scope, 'read').where('m.id = :id', { id }).getRawMany();`,
    },
    tsc: { code: 2339, message: /Property 'where' does not exist on type 'ScopedSelect</ },
    lint: /\.where\(\) replaces the predicate/,
    fine: {
      path: 'src/memories/fine-1.repository.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope, id: string) =>
  access.memories(scope, 'read').andWhere('m.id = :id', { id }).getRawMany();`,
    },
  },
  '1b. .orWhere() on a scoped builder widens it': {
    rogue: {
      path: 'src/memories/rogue-1b.repository.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope) => access.memories(scope, 'read').orWhere('TRUE').getRawMany();`,
    },
    tsc: { code: 2339, message: /Property 'orWhere' does not exist on type 'ScopedSelect</ },
    lint: /\.orWhere\(\) widens the predicate/,
    fine: {
      path: 'src/memories/fine-1b.repository.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope) =>
  access.memories(scope, 'read').andWhere("m.visibility = 'workspace' OR m.visibility IS NULL").getRawMany();`,
    },
  },
  '2. userQuery on another tenant table with user_id = $1': {
    rogue: {
      path: 'src/lessons/rogue-2.repository.ts',
      code: `import type { MemoryAccess } from '../database/access/memory-access';
export const rogue = (access: MemoryAccess, userId: string) => access.userQuery(userId, 'SELECT * FROM memories WHERE user_id = $1');`,
    },
    lint: /userQuery is for the lessons table alone/,
    fine: {
      path: 'src/lessons/fine-2.repository.ts',
      code: `import type { MemoryAccess } from '../database/access/memory-access';
export const fine = (access: MemoryAccess, userId: string) => access.userQuery(userId, 'SELECT id FROM lessons WHERE user_id = $1');`,
    },
  },
  '3. lower-case SQL on a tenant table': {
    rogue: {
      path: 'src/memories/rogue-3.repository.ts',
      code: `export const rogue = (db: { query(sql: string, p: unknown[]): unknown }, id: string) =>
  db.query('select content from memories where id = $1', [id]);`,
    },
    lint: /Tenant tables are reached only through MemoryAccess/,
    fine: {
      path: 'src/memories/fine-3.repository.ts',
      code: `export const fine = (db: { query(sql: string, p: unknown[]): unknown }, id: string) =>
  db.query('select trust_level from agents where agent_id = $1', [id]);`,
    },
  },
  '4a. manager.find / count / save / createQueryBuilder on a tenant entity': {
    rogue: {
      path: 'src/memories/rogue-4a.repository.ts',
      code: `import { MemoryEntity } from '../database/entities/memory.entity';
type Manager = { find(e: unknown): unknown; count(e: unknown): unknown; save(e: unknown, v: unknown): unknown; createQueryBuilder(e: unknown, a: string): unknown };
export const rogue = (manager: Manager) => [
  manager.find(MemoryEntity),
  manager.count(MemoryEntity),
  manager.save(MemoryEntity, {}),
  manager.createQueryBuilder(MemoryEntity, 'm'),
];`,
    },
    lint: /Tenant tables are reached only through MemoryAccess/,
    fine: {
      path: 'src/memories/fine-4a.repository.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope) => [access.memories(scope, 'read').getCount()];`,
    },
  },
  '4b. a manager in reach: Repository.manager, .connection on a builder': {
    rogue: {
      path: 'src/memories/rogue-4b.repository.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope) => access.memories(scope, 'read').connection.manager.query('SELECT 1');`,
    },
    tsc: { code: 2339, message: /Property 'connection' does not exist on type 'ScopedSelect</ },
    lint: /A manager or connection reaches every table/,
    fine: {
      path: 'src/memories/fine-4b.repository.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope) => access.memories(scope, 'read').select('m.id', 'id').getRawMany();`,
    },
  },
  "5. setParameter('vis_userId', other) rebinds the scope": {
    rogue: {
      path: 'src/memories/rogue-5.repository.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope, other: string) =>
  access.memories(scope, 'read').setParameter('vis_userId', other).getRawMany();`,
    },
    tsc: { code: 2339, message: /Property 'setParameter' does not exist on type 'ScopedSelect</ },
    lint: /Parameters are bound by MemoryAccess/,
    fine: {
      path: 'src/memories/fine-5.repository.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope, other: string) =>
  access.memories(scope, 'read').andWhere('m.agent_id = :other', { other }).getRawMany();`,
    },
  },
  "6. a shaped statement takes the scope's values from its caller": {
    rogue: {
      path: 'src/retrieval/rogue-6.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope, other: string, q: string) =>
  access.search({ statement: 'exact-vector', scope, purpose: 'read', filters: {}, q, k: 10, bound: null, gate: null, liveKeyId: null, vis_userId: other });`,
    },
    tsc: {
      code: 2353,
      message: /Object literal may only specify known properties, and 'vis_userId' does not exist in type 'ExactVectorPlan'/,
    },
    fine: {
      path: 'src/retrieval/fine-6.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope, q: string) =>
  access.search({ statement: 'exact-vector', scope, purpose: 'read', filters: {}, q, k: 10, bound: null, gate: null, liveKeyId: null });`,
    },
  },
  '6b. a hand-built shape key and a render callback (the old searchShape)': {
    rogue: {
      path: 'src/retrieval/rogue-6b.ts',
      code: `${ACCESS}
export const rogue = (access: MemoryAccess, scope: MemoryScope) =>
  access.searchShape('exact|user:read|000', () => ({ candidates: access.memories(scope, 'read'), gated: false, candidateLimit: false, keyChecked: false }));`,
    },
    tsc: { code: 2339, message: /Property 'searchShape' does not exist on type 'MemoryAccess'/ },
    fine: {
      path: 'src/retrieval/fine-6b.ts',
      code: `${ACCESS}
export const fine = (access: MemoryAccess, scope: MemoryScope, id: string) =>
  access.records({ statement: 'record-by-id', scope, purpose: 'read', id });`,
    },
  },
  '7. anywhere in src/database/ was exempt': {
    rogue: {
      path: 'src/database/rogue-7.ts',
      code: `import type { DataSource } from 'typeorm';
export const rogue = (dataSource: DataSource) => dataSource.query('SELECT * FROM memories');`,
    },
    lint: /Tenant tables are reached only through MemoryAccess/,
    fine: {
      // The same statement in the door's own folder (the one exemption for callers' reads).
      path: 'src/database/access/fine-7.ts',
      code: `import type { DataSource } from 'typeorm';
export const fine = (dataSource: DataSource) => dataSource.query('SELECT * FROM memories');`,
    },
  },
};

describe('the seven holes of issue 21, as rogue snippets', () => {
  let diagnostics: Map<string, string[]>;
  let eslint: ESLint;
  beforeAll(() => {
    diagnostics = compileWith(
      Object.fromEntries(
        Object.values(HOLES)
          .flatMap((h) => [h.rogue, h.fine])
          .map((s) => [s.path, s.code]),
      ),
    );
    eslint = new ESLint({ cwd: ROOT });
  }, 120_000);

  const lintMessages = async (s: Snippet): Promise<string[]> => {
    const [result] = await eslint.lintText(s.code, { filePath: join(ROOT, s.path) });
    return result.messages.filter((m) => m.ruleId === 'no-restricted-syntax' || m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  describe.each(Object.keys(HOLES))('%s', (name) => {
    const hole = HOLES[name];

    it('the rogue snippet fails, for the expected reason', async () => {
      expect(hole.tsc ?? hole.lint).toBeDefined();
      const found = diagnostics.get(hole.rogue.path) ?? [];
      if (hole.tsc) {
        expect(found).toEqual(
          expect.arrayContaining([expect.stringMatching(new RegExp(`^TS${hole.tsc.code}: ${hole.tsc.message.source}`))]),
        );
      } else {
        // Lint alone catches it: the snippet compiles, so only the rule stands in its way.
        expect(found).toEqual([]);
      }
      const lint = await lintMessages(hole.rogue);
      if (hole.lint) expect(lint).toEqual(expect.arrayContaining([expect.stringMatching(hole.lint)]));
    });

    it('its twin, the allowed way, compiles and passes lint', async () => {
      expect(diagnostics.get(hole.fine.path) ?? []).toEqual([]);
      expect(await lintMessages(hole.fine)).toEqual([]);
    });
  });
});
