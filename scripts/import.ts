/**
 * npm run import -- FILE [options]: sends an Atrium export (NDJSON) or mem0's export
 * (--format mem0) to POST /v1/memories/import in parts of --chunk records (each part a request,
 * written in the service's batches), with a progress bar on a terminal. Errors are reported with
 * the file's own line numbers (mem0: entry numbers). Exit 1 when a line failed.
 */
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { createInterface } from 'node:readline';

import type { ImportResult } from '../src/client';
import { clientFor, COMMON_FLAGS, COMMON_USAGE, fail, parse, progress, scopeOf } from './data-cli';

const USAGE = `npm run import -- FILE [options]
${COMMON_USAGE}
  --on-conflict MODE   skip (default), overwrite or new_id
  --dry-run            check and count, write nothing
  --format FORMAT      atrium (default) or mem0
  --chunk N            records per request (default 2000)`;

async function main(): Promise<void> {
  const { values, positionals, common } = parse(
    {
      ...COMMON_FLAGS,
      'on-conflict': { type: 'string', default: 'skip' },
      'dry-run': { type: 'boolean', default: false },
      format: { type: 'string', default: 'atrium' },
      chunk: { type: 'string', default: '2000' },
    },
    USAGE,
  );
  const [file] = positionals;
  if (!file) fail(USAGE);
  const onConflict = values['on-conflict'] as string;
  if (!['skip', 'overwrite', 'new_id'].includes(onConflict)) fail('--on-conflict must be skip, overwrite or new_id');
  const format = values.format as string;
  if (format !== 'atrium' && format !== 'mem0') fail('--format must be atrium or mem0');
  const chunk = Number(values.chunk);
  if (!Number.isInteger(chunk) || chunk < 1) fail('--chunk must be a positive integer');

  const client = clientFor(common);
  const options = {
    ...scopeOf(common),
    asAdmin: common.admin,
    onConflict: onConflict as 'skip' | 'overwrite' | 'new_id',
    dryRun: values['dry-run'] === true,
    format: format as 'atrium' | 'mem0',
  };
  const total: ImportResult = { imported: 0, skipped: 0, blocked: 0, failed: 0, errors: [] };
  const add = (part: ImportResult, lineOf: (line: number) => number): void => {
    total.imported += part.imported;
    total.skipped += part.skipped;
    total.blocked += part.blocked;
    total.failed += part.failed;
    total.errors.push(...part.errors.map((e) => ({ line: lineOf(e.line), error: e.error })));
  };

  if (format === 'mem0') {
    const entries = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!Array.isArray(entries)) fail(`${file}: mem0's export is a JSON array`);
    const bar = progress('importing |{bar}| {value}/{total} entries', entries.length);
    for (let start = 0; start < entries.length; start += chunk) {
      const part = await client.import(options, JSON.stringify(entries.slice(start, start + chunk)));
      add(part, (line) => start + line);
      bar.update(Math.min(start + chunk, entries.length));
    }
    bar.stop();
  } else {
    const bar = progress('importing |{bar}| {percentage}% {value}/{total} bytes', statSync(file).size);
    let header: string | null = null;
    let lines: string[] = [];
    let first = 0;
    let number = 0;
    let bytes = 0;
    const send = async (): Promise<void> => {
      if (lines.length === 0) return;
      const body = `${header === null ? '' : `${header}\n`}${lines.join('\n')}\n`;
      const offset = header === null ? 0 : 1;
      const start = first;
      add(await client.import(options, body), (line) => start + line - 1 - offset);
      lines = [];
      bar.update(bytes);
    };
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      number++;
      bytes += Buffer.byteLength(line) + 1;
      if (number === 1 && line.includes('"format"')) {
        header = line;
        continue;
      }
      if (lines.length === 0) first = number;
      lines.push(line);
      if (lines.length >= chunk) await send();
    }
    await send();
    bar.stop();
  }
  process.stdout.write(`${JSON.stringify(total)}\n`);
  if (total.failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
