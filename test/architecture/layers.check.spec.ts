import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/**
 * The layer order of src/ (.dependency-cruiser.cjs, run by `npm run lint`): the real tree
 * holds it, and on a small tree of the same shape the rule fails an upward import, an import
 * between two folders of one layer, and an import circle, and lets a downward import through.
 */
const ROOT = join(__dirname, '..', '..');
const DEPCRUISE = join(ROOT, 'node_modules', '.bin', 'depcruise');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');

function cruise(cwd: string): { status: number | null; output: string } {
  const run = spawnSync(DEPCRUISE, ['src', '--config', CONFIG, '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** A throwaway tree with a tsconfig and these files under src/. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-layers-'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext' } }));
  for (const [path, code] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), code);
  }
  return dir;
}

describe('the layer order of src/', () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const run = (files: Record<string, string>) => {
    const dir = tree(files);
    dirs.push(dir);
    return cruise(dir);
  };

  it('holds on the tree', () => {
    const result = cruise(ROOT);
    expect(result.output).toMatch(/no dependency violations found/);
    expect(result.status).toBe(0);
  }, 60_000);

  it('fails an upward import (embeddings importing from memories)', () => {
    const result = run({
      'src/memories/memories.service.ts': 'export const service = 1;\n',
      'src/embeddings/rogue.ts': "import { service } from '../memories/memories.service';\nexport const rogue = service;\n",
    });
    expect(result.output).toMatch(/error layer-embeddings-up: src\/embeddings\/rogue\.ts → src\/memories\/memories\.service\.ts/);
    expect(result.status).not.toBe(0);
  }, 60_000);

  it('lets the same import run downward (memories importing from embeddings)', () => {
    const result = run({
      'src/embeddings/embedding.service.ts': 'export const embed = 1;\n',
      'src/memories/fine.ts': "import { embed } from '../embeddings/embedding.service';\nexport const fine = embed;\n",
    });
    expect(result.output).toMatch(/no dependency violations found/);
    expect(result.status).toBe(0);
  }, 60_000);

  it('fails an import between two folders of one layer, and a circle', () => {
    const result = run({
      'src/auth/a.ts': "import { b } from '../settings/b';\nexport const a = b;\n",
      'src/settings/b.ts': 'export const b = 1;\n',
      'src/common/x.ts': "import { y } from './y';\nexport const x = () => y;\n",
      'src/common/y.ts': "import { x } from './x';\nexport const y = () => x;\n",
    });
    expect(result.output).toMatch(/error layer-auth-peer: src\/auth\/a\.ts → src\/settings\/b\.ts/);
    expect(result.output).toMatch(/error no-circular: src\/common\/x\.ts → /);
    expect(result.status).not.toBe(0);
  }, 60_000);
});
