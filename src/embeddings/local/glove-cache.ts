import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

import { defaultEmbeddingCacheDir } from '../../common/project-root';
import { decodeGlove, StaleGloveFileError } from './glove-binary-format';
import { buildGloveFile, DEFAULT_GLOVE_BUILD_PARAMS, GloveBuildParams, GloveBuildReport, gloveParamsHash } from './glove-build';
import { GloveVocabulary } from './glove-vocabulary';
import { resolveWinkSourcePath } from './wink-source';

/** One name for every version: a stale file is replaced instead of piling up next to the new one. */
export const GLOVE_CACHE_FILE = 'glove-6b-100d-sif.bin';

export interface GloveCacheOptions {
  /** Default `<project root>/.cache/embeddings`. */
  cacheDir?: string;
  /** The wink JSON file; default: resolved from node_modules. */
  sourcePath?: string;
  params?: GloveBuildParams;
  /** Rebuild even if a valid file exists (the build script's `--force`). */
  force?: boolean;
  log?: (line: string) => void;
}

export interface LoadedGlove {
  vocabulary: GloveVocabulary;
  params: GloveBuildParams;
  file: string;
  bytes: number;
  /** Time to read and check the file (0 when it was just built). */
  loadMs: number;
  /** Set when this call built the file. */
  build?: GloveBuildReport & { reason: string };
}

// Concurrent callers in one process share one load or build. Settled entries are dropped:
// a later caller reads the file again (tens of ms) and sees a rebuilt file if there is one.
const inFlight = new Map<string, Promise<LoadedGlove>>();

export function loadOrBuildGlove(options: GloveCacheOptions = {}): Promise<LoadedGlove> {
  const cacheDir = options.cacheDir ?? defaultEmbeddingCacheDir();
  const params = options.params ?? DEFAULT_GLOVE_BUILD_PARAMS;
  const file = join(cacheDir, GLOVE_CACHE_FILE);
  const key = `${file}\u0000${gloveParamsHash(params)}`;
  if (options.force) inFlight.delete(key);
  let pending = inFlight.get(key);
  if (!pending) {
    pending = loadOrBuild(file, cacheDir, params, options);
    inFlight.set(key, pending);
    const forget = () => {
      if (inFlight.get(key) === pending) inFlight.delete(key);
    };
    pending.then(forget, forget);
  }
  return pending;
}

async function loadOrBuild(file: string, cacheDir: string, params: GloveBuildParams, options: GloveCacheOptions): Promise<LoadedGlove> {
  const expectedHash = gloveParamsHash(params);
  let reason = 'forced rebuild';
  if (!options.force) {
    const started = performance.now();
    try {
      const bytes = await readFile(file);
      const vocabulary = new GloveVocabulary(decodeGlove(bytes, expectedHash));
      return { vocabulary, params, file, bytes: bytes.length, loadMs: performance.now() - started };
    } catch (error) {
      if (isNotFound(error)) reason = 'no cache file yet';
      else if (error instanceof StaleGloveFileError) reason = error.message;
      else throw error;
    }
  }

  const sourcePath = resolveWinkSourcePath(file, options.sourcePath);
  options.log?.(`building ${file} from ${sourcePath} (${reason})`);
  const source = await readFile(sourcePath);
  const { file: contents, report } = buildGloveFile(source, params);
  await mkdir(cacheDir, { recursive: true });
  await writeAtomically(file, contents);
  const vocabulary = new GloveVocabulary(decodeGlove(contents, expectedHash));
  return { vocabulary, params, file, bytes: contents.length, loadMs: 0, build: { ...report, reason } };
}

/**
 * Two processes may build at the same moment (tests in parallel workers, app + script). Each
 * writes its own temp file and renames it into place; rename is atomic on POSIX, so readers see
 * either the old complete file or a new complete one, never a torn write.
 */
async function writeAtomically(file: string, contents: Buffer): Promise<void> {
  const temp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    const handle = await open(temp, 'wx');
    try {
      await handle.writeFile(contents);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}

function isNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === 'ENOENT';
}
