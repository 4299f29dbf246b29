import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import request from 'supertest';

import { INSPECTOR_CSP, InspectorAssets } from '../../src/inspector/inspector-assets';

/** The inspector's static files: served from memory by exact path, the shell for page paths, the rest passed on. */
describe('InspectorAssets', () => {
  let dir: string;
  let server: Server;
  const SHELL = '<!doctype html><title>Atrium inspector</title><script type="module" src="/ui/assets/app-1a2b.js"></script>';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'atrium-ui-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), SHELL);
    writeFileSync(join(dir, 'assets', 'app-1a2b.js'), 'console.log(1)');
    writeFileSync(join(dir, 'assets', 'app-1a2b.css'), 'body{}');
    writeFileSync(join(dir, 'notes.unknown'), 'not served: no known type');
    writeFileSync(join(tmpdir(), 'atrium-ui-outside.txt'), 'outside the build');
    symlinkSync(join(tmpdir(), 'atrium-ui-outside.txt'), join(dir, 'linked.txt'));
    const assets = InspectorAssets.load(dir);
    if (!assets) throw new Error('no build loaded');
    const handler = assets.handler();
    server = createServer((req, res) =>
      handler(req, res, () => {
        res.statusCode = 404;
        res.end('passed on');
      }),
    );
  });
  afterAll(() => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(join(tmpdir(), 'atrium-ui-outside.txt'), { force: true });
  });

  it('is null without a build', () => {
    expect(InspectorAssets.load(join(dir, 'assets'))).toBeNull();
  });

  it.each(['/ui', '/ui/', '/ui/memories', '/ui/memories/3f0c6a5e-8d2b-4c1a-9e7f-1b2c3d4e5f60', '/ui/index.html', '/ui/audit?x=1'])(
    'answers %s with the shell, never cached, under the CSP',
    async (path) => {
      const res = await request(server).get(path);
      expect(res.status).toBe(200);
      expect(res.text).toBe(SHELL);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toBe(INSPECTOR_CSP);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    },
  );

  it('serves fingerprinted assets with their type, cached for good', async () => {
    const js = await request(server).get('/ui/assets/app-1a2b.js');
    expect(js.status).toBe(200);
    expect(js.text).toBe('console.log(1)');
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = await request(server).get('/ui/assets/app-1a2b.css');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
  });

  it.each([
    '/ui/assets/missing.js',
    '/ui/notes.unknown',
    '/ui/linked.txt',
    '/ui/../package.json',
    '/ui/%2e%2e/package.json',
    '/ui/assets/..%2fapp-1a2b.js',
    '/uix',
    '/v1/memories/list',
  ])('passes %s on to the app', async (path) => {
    const res = await request(server).get(path);
    expect(res.status).toBe(404);
    expect(res.text).toBe('passed on');
  });

  it('passes on every method but GET and HEAD, and answers HEAD without a body', async () => {
    expect((await request(server).post('/ui/').send({})).text).toBe('passed on');
    const head = await request(server).head('/ui/assets/app-1a2b.js');
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe('14');
  });
});
