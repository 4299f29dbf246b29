import { execFileSync } from 'node:child_process';
import { closeSync, constants, mkdtempSync, openSync, readFileSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { ExpiringSet } from '../../src/common/expiring-set';
import { boundedAsyncDestination } from '../../src/common/logging/json-logger';
import { SHAPE_CACHE_LIMIT, ShapeCache } from '../../src/database/access/statement-shape';
import { EnvValidationError, loadEnv } from '../../src/env/env.schema';
import { DEFAULT_MAX_OLD_SPACE_MB, heapLimitWarning, oldSpaceLimitMb } from '../../src/env/heap-limit';

const root = join(__dirname, '..', '..');
const MB = 2 ** 20;

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
  const startScript = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts.start;

  it('uses ATRIUM_MAX_OLD_SPACE_MB with the same default everywhere', () => {
    expect(startScript).toBe(`node --max-old-space-size=\${ATRIUM_MAX_OLD_SPACE_MB:-${DEFAULT_MAX_OLD_SPACE_MB}} dist/src/main.js`);
    const dockerfile = readFileSync(join(root, 'docker', 'Dockerfile'), 'utf8');
    expect(dockerfile).toContain(`ATRIUM_MAX_OLD_SPACE_MB=${DEFAULT_MAX_OLD_SPACE_MB}`);
    expect(dockerfile).toContain('exec node --max-old-space-size=\\"$ATRIUM_MAX_OLD_SPACE_MB\\" dist/src/main.js');
    expect(loadEnv({}).ATRIUM_MAX_OLD_SPACE_MB).toBe(DEFAULT_MAX_OLD_SPACE_MB);
  });

  it.each([
    [undefined, DEFAULT_MAX_OLD_SPACE_MB],
    ['256', 256],
  ])('starts node with the old generation bounded (ATRIUM_MAX_OLD_SPACE_MB=%s)', (value, expectedMb) => {
    // The start script's own command, through sh as npm runs it, with a probe instead of the service.
    const probe = `-e "process.stdout.write(String(require('node:v8').getHeapStatistics().heap_size_limit))"`;
    const command = startScript.replace('dist/src/main.js', probe);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
    if (value !== undefined) env.ATRIUM_MAX_OLD_SPACE_MB = value;
    const limit = Number(execFileSync('sh', ['-c', command], { env, encoding: 'utf8' }));
    expect(oldSpaceLimitMb(limit)).toBe(expectedMb);
    expect(heapLimitWarning(expectedMb, limit)).toBeNull();
  });

  it('warns when the process runs with another limit than the variable says', () => {
    expect(heapLimitWarning(192, (4096 + 48) * MB)).toMatch(/ATRIUM_MAX_OLD_SPACE_MB is 192 but .* about 4096 MB/);
  });

  it.each(['64', 'lots', '70000'])('rejects ATRIUM_MAX_OLD_SPACE_MB=%s naming the variable', (value) => {
    expect(() => loadEnv({ ATRIUM_MAX_OLD_SPACE_MB: value })).toThrow(EnvValidationError);
    expect(() => loadEnv({ ATRIUM_MAX_OLD_SPACE_MB: value })).toThrow(/ATRIUM_MAX_OLD_SPACE_MB must be/);
  });
});
