import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The nearest directory at or above `start` that holds a package.json. Works the same from
 * `src/embeddings` (tests) and `dist/src/embeddings` (built code).
 */
export function findProjectRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json found at or above ${start}`);
    dir = parent;
  }
}

/** `<project root>/.cache/embeddings`: the default home of the local provider's binary. */
export function defaultEmbeddingCacheDir(): string {
  return join(findProjectRoot(), '.cache', 'embeddings');
}
