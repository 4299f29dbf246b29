import { join } from 'node:path';

import { ESLint } from 'eslint';

/**
 * STYLE.md rule 13: outside src/database/access (and the maintenance folder, each exemption
 * listed with its reason in eslint.one-door.mjs), nothing reaches the tenant tables except
 * through MemoryAccess. `npm run lint` fails CI on the same rules; this spec runs them on the
 * tree and shows, on rogue snippets, that they do fire (the seven holes of issue 21 are in
 * rogue-snippets.check.spec.ts).
 */
const ROOT = join(__dirname, '..', '..');
const ONE_DOOR_RULES = new Set(['no-restricted-syntax', 'no-restricted-imports']);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

async function violations(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, filePath) });
  return result.messages.filter((m) => m.ruleId !== null && ONE_DOOR_RULES.has(m.ruleId)).map((m) => `${m.line}: ${m.message}`);
}

describe('one door into the tenant tables', () => {
  it('no file under src/ reaches a tenant table except through MemoryAccess', async () => {
    const results = await eslint.lintFiles([join(ROOT, 'src')]);
    const found = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId !== null && ONE_DOOR_RULES.has(m.ruleId)).map((m) => `${r.filePath}:${m.line} ${m.message}`),
    );
    expect(found).toEqual([]);
  }, 60_000);

  describe('the rules catch a repository that goes around the door', () => {
    const ROGUE: Record<string, string> = {
      'injects the memories repository': `
        import { InjectRepository } from '@nestjs/typeorm';
        import { MemoryEntity } from './memory.entity';
        export class Rogue { constructor(@InjectRepository(MemoryEntity) private readonly r: unknown) {} }`,
      'injects the lessons repository': `
        import { InjectRepository } from '@nestjs/typeorm';
        import { LessonEntity } from '../lessons/lesson.entity';
        export class Rogue { constructor(@InjectRepository(LessonEntity) private readonly r: unknown) {} }`,
      'asks a manager for the grants repository': `
        import { VisibilityGrantEntity } from './visibility-grant.entity';
        export const rogue = (m: { getRepository(e: unknown): unknown }) => m.getRepository(VisibilityGrantEntity);`,
      'imports the DataSource': `
        import { DataSource } from 'typeorm';
        export const rogue = (ds: DataSource) => ds;`,
      'sends raw SQL on memories': `
        export const rogue = (db: { query(sql: string): unknown }) => db.query('SELECT * FROM memories WHERE id = $1');`,
      'sends raw SQL on grants in a template': `
        export const rogue = (db: { query(sql: string): unknown }, id: string) => db.query(\`DELETE FROM memory_visibility_grants WHERE memory_id = '\${id}'\`);`,
      'keeps lesson SQL in a variable to slip past userQuery': `
        const sql = 'SELECT * FROM lessons';
        export const rogue = (a: { userQuery(u: string, s: string): unknown }) => a.userQuery('u', sql);`,
      'registers a tenant entity for injection': `
        import { TypeOrmModule } from '@nestjs/typeorm';
        import { EpisodeEntity } from './episode.entity';
        export const rogue = TypeOrmModule.forFeature([EpisodeEntity]);`,
    };

    it.each(Object.keys(ROGUE))('flags a file that %s', async (name) => {
      expect(await violations(ROGUE[name], 'src/memories/rogue.repository.ts')).not.toEqual([]);
    });

    it('allows the same code inside src/database/access/ (the door itself)', async () => {
      expect(await violations(ROGUE['injects the memories repository'], 'src/database/access/rogue.ts')).toEqual([]);
    });

    it('allows lesson SQL written in place as a userQuery statement, and prose that mentions memories', async () => {
      const fine = `
        // Returns facts from memories the caller can see.
        export const ok = (a: { userQuery(u: string, s: string): unknown }) =>
          a.userQuery('u', 'SELECT id FROM lessons WHERE user_id = $1');`;
      expect(await violations(fine, 'src/lessons/fine.repository.ts')).toEqual([]);
    });
  });
});
