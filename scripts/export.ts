/**
 * npm run export -- [--out FILE] [options]: GET /v1/memories/export through the TypeScript
 * client, written as NDJSON (to FILE, else stdout), with a progress bar on a terminal. Exit 1 when
 * the export stopped before its end line (incomplete).
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

import { keysToSnake } from '../src/client/case-conversion';
import { clientFor, COMMON_FLAGS, COMMON_USAGE, fail, parse, progress, scopeOf } from './data-cli';

const USAGE = `npm run export -- [options]
${COMMON_USAGE}
  --out FILE           write here (default: stdout)
  --include-vectors    add each memory's vector (an import into the same embedder then reuses it)
  --include-expired    add memories past their expiry`;

async function main(): Promise<void> {
  const { values, common } = parse(
    {
      ...COMMON_FLAGS,
      out: { type: 'string' },
      'include-vectors': { type: 'boolean', default: false },
      'include-expired': { type: 'boolean', default: false },
    },
    USAGE,
  );
  const out = values.out ? createWriteStream(values.out as string) : process.stdout;
  const client = clientFor(common);
  const bar = progress('exporting {value} memories', 1);
  let count = 0;
  for await (const line of client.export({
    ...scopeOf(common),
    asAdmin: common.admin,
    includeVectors: values['include-vectors'] === true,
    includeExpired: values['include-expired'] === true,
  })) {
    const { kind, ...rest } = line;
    if (kind === 'memory') bar.update(++count, count + 1);
    if (!out.write(`${JSON.stringify(keysToSnake(rest))}\n`)) await once(out, 'drain');
  }
  bar.update(count, count);
  bar.stop();
  if (out !== process.stdout) {
    out.end();
    await once(out, 'finish');
    process.stderr.write(`${count} memories written to ${values.out as string}\n`);
  }
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
