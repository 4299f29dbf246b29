import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startListeningApp, type ListeningApp } from '../client/listening-app';
import { buildService } from '../instances/build-service';
import { ADMIN_TOKEN } from '../support/api-keys';
import { newUser } from '../support/ids';
import { seedIsolation, type IsolationWorld } from '../support/seed-isolation';

/** What a CLI run left: its exit code and what it wrote. */
interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `npm run export` and `npm run import` (scripts/export.ts, scripts/import.ts; docs/data.md, "From
 * the command line"), compiled and run as child processes against two services on loopback
 * ports, each with a database of its own: export a scope to a file, import the file into the
 * other database, compare. The target takes at most 16 KB per request (IMPORT_MAX_BYTES), so a
 * file larger than that goes through only in parts (--chunk, --chunk-bytes), and a part that is
 * refused stops the import with the line to resume from (--from-line).
 */
describe('the export and import command lines', () => {
  let source: ListeningApp;
  let target: ListeningApp;
  let world: IsolationWorld;
  let dir: string;
  let scripts: string;
  let removeBuild: () => Promise<void>;
  const MAX_BYTES = 16_384;

  beforeAll(async () => {
    const build = await buildService(['scripts']);
    scripts = join(build.main, '..', '..', 'scripts');
    removeBuild = build.remove;
    source = await startListeningApp({ ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN });
    target = await startListeningApp({ ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN, IMPORT_MAX_BYTES: String(MAX_BYTES) });
    world = await seedIsolation(source.t);
    dir = await mkdtemp(join(tmpdir(), 'atrium-cli-'));
  }, 120_000);
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await target?.t.close();
    await source?.t.close();
    await removeBuild?.();
  });

  /** Runs a CLI (asynchronously: the services answer from this process's event loop). */
  const run = (cli: 'export' | 'import', args: string[], env: Record<string, string> = {}): Promise<Run> =>
    new Promise((resolve) => {
      execFile(
        process.execPath,
        [join(scripts, `${cli}.js`), ...args],
        { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
          resolve({ code, stdout, stderr });
        },
      );
    });

  const lines = async (file: string): Promise<Record<string, unknown>[]> =>
    (await readFile(file, 'utf8'))
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  /** The memory lines of an export file, reduced to what an import keeps, by id. */
  const kept = (records: Record<string, unknown>[]) =>
    records
      .filter((r) => r.format === undefined && r.end === undefined)
      .map((m) => ({
        id: m.id,
        content: m.content,
        workspace_id: m.workspace_id,
        agent_id: m.agent_id,
        visibility: m.visibility,
        metadata: m.metadata,
        source_site: m.source_site,
        created_at: m.created_at,
        grants: ((m.grants as { grantee_agent_id: string }[] | undefined) ?? []).map((g) => g.grantee_agent_id).sort(),
      }))
      .sort((a, b) => String(a.id).localeCompare(String(b.id)));

  it("exports a user's memories to a file and imports the file as another user of another database, in parts", async () => {
    const user = newUser('cli-src');
    // Seeded through the import route (ingest would merge such alike texts), long enough that the
    // file is larger than the target's IMPORT_MAX_BYTES.
    const sentences = ['The boiler in the basement is serviced every October by the same firm.', 'Invoices for the shop go to the finance inbox.', 'The spare keys hang in the second drawer of the front desk.'];
    const seed = Array.from({ length: 12 }, (_, i) =>
      JSON.stringify({
        id: randomUUID(),
        content: `Note ${i}: ${Array.from({ length: 20 }, (_, k) => sentences[(i + k) % sentences.length]).join(' ')}`,
        source_site: 'cli.example',
        metadata: { i },
        created_at: new Date(Date.UTC(2025, 5, 1, 12, i)).toISOString(),
      }),
    );
    const seeded = await source.t.http().post('/v1/memories/import').query({ user_id: user }).set('Content-Type', 'application/x-ndjson').send(seed.join('\n'));
    expect(seeded.body).toMatchObject({ imported: 12, failed: 0 });
    const file = join(dir, 'user.ndjson');
    const exported = await run('export', ['--url', source.baseUrl, '--user-id', user, '--out', file]);
    // No terminal: no progress bar, one summary line.
    expect(exported).toEqual({ code: 0, stdout: '', stderr: `12 memories written to ${file}\n` });
    const written = await lines(file);
    expect(written[0]).toMatchObject({ format: 'atrium.export', version: 1 });
    expect(written[written.length - 1]).toEqual({ end: true, count: 12 });
    const size = (await readFile(file)).length;
    expect(size).toBeGreaterThan(MAX_BYTES); // one request could not carry it

    const other = newUser('cli-dst');
    // In one part (the default --chunk is 500 records), the target refuses it: the import says where to resume.
    const refused = await run('import', [file, '--url', target.baseUrl, '--user-id', other]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('import stopped at line 2: ');
    expect(refused.stderr).toContain('IMPORT_MAX_BYTES');
    expect(refused.stderr).toContain('Resume with --from-line 2');

    // Parts of at most 8 KB: it goes through. Resuming from line 8 first, then the whole file with skip.
    const resumed = await run('import', [file, '--url', target.baseUrl, '--user-id', other, '--chunk-bytes', '8000', '--from-line', '8']);
    expect({ code: resumed.code, stderr: resumed.stderr }).toEqual({ code: 0, stderr: '' });
    expect(JSON.parse(resumed.stdout)).toEqual({ imported: 6, skipped: 0, blocked: 0, failed: 0, errors: [] });
    const rest = await run('import', [file, '--url', target.baseUrl, '--user-id', other, '--chunk-bytes', '8000']);
    expect(JSON.parse(rest.stdout)).toEqual({ imported: 6, skipped: 6, blocked: 0, failed: 0, errors: [] });

    const copy = join(dir, 'copy.ndjson');
    expect((await run('export', ['--url', target.baseUrl, '--user-id', other, '--out', copy])).code).toBe(0);
    expect(kept(await lines(copy))).toEqual(kept(written));
  }, 120_000);

  it("round trip with the admin token: a user's every workspace, agent, visibility and grant; errors by the file's line numbers", async () => {
    const env = { ATRIUM_ADMIN_TOKEN: ADMIN_TOKEN };
    const user = world.users.A;
    const file = join(dir, 'admin.ndjson');
    expect((await run('export', ['--url', source.baseUrl, '--admin', '--user-id', user, '--out', file], env)).code).toBe(0);
    const written = await lines(file);
    const count = written.length - 2;
    expect(count).toBeGreaterThan(8);
    expect(kept(written).some((m) => m.grants.length > 0)).toBe(true);
    expect(new Set(kept(written).map((m) => m.workspace_id)).size).toBeGreaterThan(2);

    // A bad line in the middle of the file: reported under its own line number, across parts of 3 records.
    const bad = [...written.slice(0, 5).map((l) => JSON.stringify(l)), 'this is not json', ...written.slice(5).map((l) => JSON.stringify(l))];
    const withBadLine = join(dir, 'admin-bad.ndjson');
    await writeFile(withBadLine, `${bad.join('\n')}\n`);
    const imported = await run('import', [withBadLine, '--url', target.baseUrl, '--admin', '--user-id', user, '--chunk', '3'], env);
    expect(imported.code).toBe(1); // a line failed
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toEqual({ imported: count, skipped: 0, blocked: 0, failed: 1, errors: [{ line: 6, error: 'not valid JSON' }] });

    const copy = join(dir, 'admin-copy.ndjson');
    expect((await run('export', ['--url', target.baseUrl, '--admin', '--user-id', user, '--out', copy], env)).code).toBe(0);
    expect(kept(await lines(copy))).toEqual(kept(written));
  }, 120_000);

  it('refuses a bad flag or value with a clear message and exit code 1, before sending anything', async () => {
    const file = join(dir, 'any.ndjson');
    await writeFile(file, '{"format":"atrium.export","version":1}\n');
    const cases: [('export' | 'import'), string[], string][] = [
      ['import', [file, '--bogus'], "Unknown option '--bogus'"],
      ['import', [file, '--chunk', '0'], '--chunk must be a positive integer'],
      ['import', [file, '--chunk-bytes', 'lots'], '--chunk-bytes must be a positive integer'],
      ['import', [file, '--from-line', '0'], '--from-line must be a positive integer'],
      ['import', [file, '--on-conflict', 'replace'], '--on-conflict must be skip, overwrite or new_id'],
      ['import', [file, '--format', 'csv'], '--format must be atrium or mem0'],
      ['import', [], 'npm run import -- FILE [options]'],
      ['export', ['--include-vectorz'], "Unknown option '--include-vectorz'"],
    ];
    for (const [cli, args, message] of cases) {
      const result = await run(cli, ['--url', 'http://127.0.0.1:9', ...args]);
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: 1, stdout: '' });
      expect(result.stderr).toContain(message);
    }
    // A service that is not there: exit 1 with the reason.
    const unreachable = await run('export', ['--url', 'http://127.0.0.1:9', '--user-id', 'u']);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stderr.length).toBeGreaterThan(0);
  }, 60_000);
});
