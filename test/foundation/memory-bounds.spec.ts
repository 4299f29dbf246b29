import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { transformFile, type Options } from '@swc/core';

import { ExpiringSet } from '../../src/common/expiring-set';
import { boundedAsyncDestination } from '../../src/common/logging/json-logger';
import { SHAPE_CACHE_LIMIT, ShapeCache } from '../../src/database/access/statement-shape';
import { EnvValidationError, loadEnv } from '../../src/env/env.schema';
import {
  defaultMaxOldSpaceMb,
  EMBEDDED_MAX_OLD_SPACE_MB,
  heapLimitWarning,
  oldSpaceLimitMb,
  POSTGRES_MAX_OLD_SPACE_MB,
  semiSpaceMb,
} from '../../src/env/heap-limit';
import { nodeFlags } from '../../src/env/node-flags';

const root = join(__dirname, '..', '..');
const MB = 2 ** 20;

/** CommonJS out, as tsc builds dist/ (the same transform as jest.config.js). */
const SWC_OPTIONS: Options = {
  jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
  module: { type: 'commonjs' },
};

describe('in-memory structures keyed by request data stay bounded', () => {
  it('ExpiringSet keeps at most maxEntries keys, dropping the oldest first', () => {
    const set = new ExpiringSet(60_000, 3);
    for (const key of ['a', 'b', 'c', 'd', 'e']) set.add(key);
    expect(set.size).toBe(3);
    expect(['a', 'b', 'c', 'd', 'e'].filter((key) => set.has(key))).toEqual(['c', 'd', 'e']);
  });

  it('ExpiringSet forgets a key once its time is up', () => {
    let now = 1_000;
    const set = new ExpiringSet(100, 10, () => now);
    set.add('scope');
    now += 99;
    expect(set.has('scope')).toBe(true);
    now += 1;
    expect(set.has('scope')).toBe(false);
    expect(set.size).toBe(0);
  });

  it('ShapeCache never holds more than its limit of shapes', () => {
    const cache = new ShapeCache();
    for (let i = 0; i < SHAPE_CACHE_LIMIT * 2 + 7; i++) {
      cache.get(`key-${i}`, () => ({ name: `s${i}`, text: 'SELECT 1', parameters: [] }));
      expect(cache.size).toBeLessThanOrEqual(SHAPE_CACHE_LIMIT);
    }
  });

  describe('the asynchronous stdout of the logger', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(join(tmpdir(), 'atrium-log-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('holds at most its byte limit while nothing reads the pipe, dropping and counting the rest', async () => {
      // A FIFO opened read-write and never read: writes fill the pipe, then stall (EAGAIN).
      const fifo = join(dir, 'stdout');
      execFileSync('mkfifo', [fifo]);
      const fd = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
      const limit = 1 * MB;
      const drops: number[] = [];
      const destination = boundedAsyncDestination(fd, limit, (dropped) => drops.push(dropped));
      let droppedBytes = 0;
      destination.on('drop', (data: string) => (droppedBytes += Buffer.byteLength(data)));
      const line = `${JSON.stringify({ level: 'info', msg: 'request', path: '/v1/memories/search/fast', pad: 'x'.repeat(200) })}\n`;
      const lines = Math.ceil((8 * MB) / line.length);
      for (let i = 0; i < lines; i++) destination.write(line);
      const written = lines * line.length;
      // Kept in memory: what was not dropped, minus what the pipe took (at most 1 MB on Linux).
      expect(written - droppedBytes).toBeLessThanOrEqual(limit + 1 * MB);
      expect(drops.length).toBeGreaterThan(0);
      expect(drops[drops.length - 1]).toBe(drops.length);
      destination.removeAllListeners('drop');
      // Let the pending writes finish: read the pipe empty until the destination has closed.
      const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
      const buffer = Buffer.alloc(MB);
      const drain = setInterval(() => {
        try {
          while (readSync(reader, buffer) > 0);
        } catch {
          // EAGAIN: nothing to read yet
        }
      }, 5);
      const closable = destination as unknown as { end(): void; once(event: 'close', fn: () => void): void };
      await new Promise<void>((resolve) => {
        closable.once('close', resolve);
        closable.end();
      });
      clearInterval(drain);
      closeSync(reader);
    });
  });
});

describe('the heap bound of npm start and the Docker image', () => {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const startScript = scripts.start;
  const FLAGS = '$(node dist/scripts/node-flags.js)';

  it('starts node with the flags of dist/scripts/node-flags.js, in npm start, start:dev and the Docker image', () => {
    expect(startScript).toBe(`node ${FLAGS} dist/src/main.js`);
    expect(scripts['start:dev']).toContain(`node --enable-source-maps ${FLAGS} dist/src/main.js`);
    const dockerfile = readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`CMD ["sh", "-c", "exec node ${FLAGS} dist/src/main.js"]`);
    // The default depends on the database: a fixed value in the image would hide it.
    expect(dockerfile).not.toMatch(/ATRIUM_MAX_OLD_SPACE_MB=\d/);
    expect(dockerfile).toMatch(/^COPY scripts \.\/scripts$/m);
    const build = JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { include: string[] };
    expect(build.include).toEqual(expect.arrayContaining(['src', 'scripts']));
    // No default in the schema: main.ts resolves it by database, as the start command does.
    expect(loadEnv({}).ATRIUM_MAX_OLD_SPACE_MB).toBeUndefined();
    expect(defaultMaxOldSpaceMb(undefined)).toBe(EMBEDDED_MAX_OLD_SPACE_MB);
    expect(defaultMaxOldSpaceMb('')).toBe(EMBEDDED_MAX_OLD_SPACE_MB);
    expect(defaultMaxOldSpaceMb('postgres://db/atrium')).toBe(POSTGRES_MAX_OLD_SPACE_MB);
  });

  describe('nodeFlags', () => {
    const EMBEDDED_EXTRA = ['--max-semi-space-size=4', '--v8-pool-size=1'];

    it('bounds the old generation by database, and the young generation and V8 threads on the embedded one', () => {
      expect(nodeFlags({ DATABASE_URL: 'postgres://db/atrium' })).toEqual(['--max-old-space-size=192']);
      expect(nodeFlags({})).toEqual(['--max-old-space-size=128', ...EMBEDDED_EXTRA]);
      expect(nodeFlags({ DATABASE_URL: ' ' })).toEqual(['--max-old-space-size=128', ...EMBEDDED_EXTRA]);
      expect(nodeFlags({ DATABASE_URL: 'postgres://db/atrium', ATRIUM_MAX_OLD_SPACE_MB: '512' })).toEqual(['--max-old-space-size=512']);
      expect(nodeFlags({ ATRIUM_MAX_OLD_SPACE_MB: ' 256 ' })).toEqual(['--max-old-space-size=256', ...EMBEDDED_EXTRA]);
    });

    it('reads .env for what the environment lacks; the environment wins, even when empty', () => {
      const dotenv = 'DATABASE_URL=postgres://db/atrium\nATRIUM_MAX_OLD_SPACE_MB=300\n';
      expect(nodeFlags({}, dotenv)).toEqual(['--max-old-space-size=300']);
      expect(nodeFlags({ ATRIUM_MAX_OLD_SPACE_MB: '160' }, dotenv)).toEqual(['--max-old-space-size=160']);
      expect(nodeFlags({ DATABASE_URL: '' }, dotenv)).toEqual(['--max-old-space-size=300', ...EMBEDDED_EXTRA]);
      expect(nodeFlags({ DATABASE_URL: 'postgres://db/atrium', ATRIUM_MAX_OLD_SPACE_MB: '' }, dotenv)).toEqual([
        '--max-old-space-size=192',
      ]);
    });

    it('leaves the old-generation flag to NODE_OPTIONS when it sets one', () => {
      expect(nodeFlags({ NODE_OPTIONS: '--max-old-space-size=1024', DATABASE_URL: 'postgres://db/atrium' })).toEqual([]);
      expect(nodeFlags({ NODE_OPTIONS: '--enable-source-maps --max_old_space_size=1024' })).toEqual(EMBEDDED_EXTRA);
      expect(nodeFlags({ NODE_OPTIONS: '--enable-source-maps' })).toEqual(['--max-old-space-size=128', ...EMBEDDED_EXTRA]);
    });

    it('passes no invalid value to node (which would not start): the default, and the service names the variable', () => {
      for (const value of ['lots', '64', '70000', '-1']) {
        expect(nodeFlags({ DATABASE_URL: 'postgres://db/atrium', ATRIUM_MAX_OLD_SPACE_MB: value })).toEqual(['--max-old-space-size=192']);
        expect(() => loadEnv({ ATRIUM_MAX_OLD_SPACE_MB: value })).toThrow(/ATRIUM_MAX_OLD_SPACE_MB must be/);
      }
    });
  });

  describe('the start script, through sh as npm runs it, with a probe instead of the service', () => {
    // The flags script compiled from its source into <dir>/dist, the start script run in <dir>
    // (where it reads .env), and the service replaced by a probe that reads .env as main.ts
    // does and reports the heap limit and the flags V8 got.
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'atrium-start-'));
      for (const source of ['scripts/node-flags.ts', 'src/env/node-flags.ts', 'src/env/heap-limit.ts']) {
        const { code } = await transformFile(join(root, source), { ...SWC_OPTIONS, swcrc: false, configFile: false });
        const target = join(dir, 'dist', source.replace(/\.ts$/, '.js'));
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, code);
      }
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    afterEach(() => rmSync(join(dir, '.env'), { force: true }));

    interface Probe {
      heapSizeLimit: number;
      execArgv: string[];
      env: Record<string, string | undefined>;
    }
    const probe =
      `-e "if (require('node:fs').existsSync('.env')) process.loadEnvFile('.env'); ` +
      `const { DATABASE_URL, ATRIUM_MAX_OLD_SPACE_MB } = process.env; ` +
      `process.stdout.write(JSON.stringify({ heapSizeLimit: require('node:v8').getHeapStatistics().heap_size_limit, execArgv: process.execArgv, env: { DATABASE_URL, ATRIUM_MAX_OLD_SPACE_MB } }))"`;
    const start = (env: NodeJS.ProcessEnv, dotenv?: string): Probe => {
      if (dotenv !== undefined) writeFileSync(join(dir, '.env'), dotenv);
      const command = startScript.replace('dist/src/main.js', probe);
      return JSON.parse(
        execFileSync('sh', ['-c', command], { cwd: dir, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' }),
      ) as Probe;
    };
    /** The old generation and semi-space the probe runs with, and main.ts's boot warning. */
    const bounds = ({ heapSizeLimit, execArgv, env }: Probe) => {
      const semiSpace = semiSpaceMb(execArgv);
      const parsed = loadEnv(env);
      const configured = parsed.ATRIUM_MAX_OLD_SPACE_MB ?? defaultMaxOldSpaceMb(parsed.DATABASE_URL);
      return {
        heapMb: heapSizeLimit / MB,
        oldSpaceMb: oldSpaceLimitMb(heapSizeLimit, semiSpace),
        semiSpace,
        poolOfOne: execArgv.includes('--v8-pool-size=1'),
        warning: heapLimitWarning(configured, heapSizeLimit, semiSpace),
      };
    };
    const POSTGRES = 'postgres://atrium@127.0.0.1:9/atrium';

    it('gives PostgreSQL a 192 MB old generation and V8 default young generation', () => {
      expect(bounds(start({ DATABASE_URL: POSTGRES }))).toEqual({
        heapMb: 192 + 48,
        oldSpaceMb: 192,
        semiSpace: 16,
        poolOfOne: false,
        warning: null,
      });
    });

    it('gives the embedded database a 128 MB old generation, 4 MB semi-spaces and one V8 worker thread', () => {
      expect(bounds(start({}))).toEqual({ heapMb: 128 + 12, oldSpaceMb: 128, semiSpace: 4, poolOfOne: true, warning: null });
    });

    it('honours DATABASE_URL and ATRIUM_MAX_OLD_SPACE_MB from a .env in the working directory', () => {
      expect(bounds(start({}, `DATABASE_URL=${POSTGRES}\n`))).toMatchObject({ heapMb: 192 + 48, oldSpaceMb: 192, warning: null });
      expect(bounds(start({}, 'ATRIUM_MAX_OLD_SPACE_MB=160\n'))).toMatchObject({ heapMb: 160 + 12, oldSpaceMb: 160, warning: null });
      // The environment wins over the file, as in main.ts.
      expect(bounds(start({ ATRIUM_MAX_OLD_SPACE_MB: '224' }, `DATABASE_URL=${POSTGRES}\nATRIUM_MAX_OLD_SPACE_MB=160\n`))).toMatchObject({
        oldSpaceMb: 224,
        semiSpace: 16,
        warning: null,
      });
    });

    it.each([
      ['PostgreSQL', { DATABASE_URL: POSTGRES }, 256 + 48],
      ['the embedded database', {}, 256 + 12],
    ])('takes ATRIUM_MAX_OLD_SPACE_MB on %s', (_name, env, heapMb) => {
      expect(bounds(start({ ...env, ATRIUM_MAX_OLD_SPACE_MB: '256' }))).toMatchObject({ heapMb, oldSpaceMb: 256, warning: null });
    });

    it('leaves the old generation to NODE_OPTIONS when it sets one', () => {
      const probed = start({ NODE_OPTIONS: '--max-old-space-size=320' });
      expect(probed.execArgv).not.toContainEqual(expect.stringMatching(/max-old-space-size/));
      expect(oldSpaceLimitMb(probed.heapSizeLimit, semiSpaceMb(probed.execArgv))).toBe(320);
    });
  });

  it('warns when the process runs with another limit than the configured one', () => {
    expect(heapLimitWarning(192, (4096 + 48) * MB)).toMatch(/should be 192 MB .* about 4096 MB/);
    // Plain `node dist/src/main.js` on the embedded database: V8's default heap.
    expect(heapLimitWarning(EMBEDDED_MAX_OLD_SPACE_MB, (4096 + 48) * MB, semiSpaceMb([]))).toMatch(/about 4096 MB/);
    // Without the semi-space flag taken into account, the embedded start would read as 164 MB.
    expect(heapLimitWarning(128, (128 + 12) * MB)).toMatch(/about 92 MB/);
    expect(heapLimitWarning(128, (128 + 12) * MB, 4)).toBeNull();
  });

  it('reads the semi-space size from node flags, the last one winning', () => {
    expect(semiSpaceMb([])).toBe(16);
    expect(semiSpaceMb(['--max-semi-space-size=4'])).toBe(4);
    expect(semiSpaceMb(['--max_semi_space_size=8', '--enable-source-maps', '--max-semi-space-size=2'])).toBe(2);
  });

  it.each(['64', 'lots', '70000'])('rejects ATRIUM_MAX_OLD_SPACE_MB=%s naming the variable', (value) => {
    expect(() => loadEnv({ ATRIUM_MAX_OLD_SPACE_MB: value })).toThrow(EnvValidationError);
    expect(() => loadEnv({ ATRIUM_MAX_OLD_SPACE_MB: value })).toThrow(/ATRIUM_MAX_OLD_SPACE_MB must be/);
  });
});
