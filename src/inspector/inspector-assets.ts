import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';

import { findProjectRoot } from '../common/project-root';

/** Where the inspector is served, and where `npm run build` (ui/vite.config.ts) writes it. */
export const INSPECTOR_PREFIX = '/ui';
export const defaultInspectorDir = (): string => join(findProjectRoot(), 'dist', 'ui');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/** The build is a handful of small files; anything far beyond is not an inspector build. */
const MAX_FILES = 200;
const MAX_TOTAL_BYTES = 20 * 2 ** 20;

/**
 * Same origin only: the pages load nothing from another host (no CDN, no web fonts), talk
 * to this service alone, run no inline script, and cannot be framed (clickjacking).
 */
export const INSPECTOR_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const COMMON_HEADERS: Record<string, string> = {
  'Content-Security-Policy': INSPECTOR_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

interface Asset {
  body: Buffer;
  type: string;
  cacheControl: string;
}

/**
 * Serves the inspector's built files from memory: read once at startup, looked up by exact
 * path, so no request path ever reaches the file system (no traversal to guard against).
 * `/ui`, `/ui/` and every page path without a file extension get index.html (the page's own
 * router takes it from there); an unknown file goes on to the app, which answers 404 in the
 * usual envelope. Fingerprinted files under assets/ are cached for good, index.html never.
 */
export class InspectorAssets {
  private constructor(
    private readonly files: ReadonlyMap<string, Asset>,
    private readonly index: Asset,
  ) {}

  /** Null when `dir` holds no build (no index.html): then nothing is served. */
  static load(dir: string): InspectorAssets | null {
    if (!existsSync(join(dir, 'index.html'))) return null;
    const files = new Map<string, Asset>();
    let total = 0;
    for (const path of listFiles(dir)) {
      const type = CONTENT_TYPES[extname(path).toLowerCase()];
      if (!type) continue;
      const body = readFileSync(path);
      total += body.length;
      if (files.size >= MAX_FILES || total > MAX_TOTAL_BYTES) throw new Error(`${dir} is too large for an inspector build`);
      const name = relative(dir, path).split(sep).join('/');
      const cacheControl = name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
      files.set(`/${name}`, { body, type, cacheControl });
    }
    // The shell names the current fingerprinted files: never cached, by any path.
    const index = { ...(files.get('/index.html') as Asset), cacheControl: 'no-store' };
    files.set('/index.html', index);
    return new InspectorAssets(files, index);
  }

  /** Express-compatible middleware for everything under INSPECTOR_PREFIX. */
  handler() {
    return (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void): void => {
      if (req.method !== 'GET' && req.method !== 'HEAD') return next();
      const asset = this.lookup(pathOf(req.url ?? '/'));
      if (!asset) return next();
      for (const [name, value] of Object.entries(COMMON_HEADERS)) res.setHeader(name, value);
      res.setHeader('Content-Type', asset.type);
      res.setHeader('Cache-Control', asset.cacheControl);
      res.setHeader('Content-Length', asset.body.length);
      res.statusCode = 200;
      res.end(req.method === 'HEAD' ? undefined : asset.body);
    };
  }

  private lookup(path: string): Asset | undefined {
    if (path !== INSPECTOR_PREFIX && !path.startsWith(`${INSPECTOR_PREFIX}/`)) return undefined;
    const rest = path.slice(INSPECTOR_PREFIX.length) || '/';
    const file = this.files.get(rest);
    if (file) return file;
    // A page of the inspector (/ui/memories/<id>), not a file: the app shell.
    const last = rest.slice(rest.lastIndexOf('/') + 1);
    return last.includes('.') ? undefined : this.index;
  }
}

/** The URL's path, without query or fragment (never decoded: lookups are exact). */
function pathOf(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

/** Regular files under `dir`; symbolic links are not followed. */
function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}
