/**
 * npm run import -- FILE [options]: sends an Atrium export (NDJSON) or mem0's export
 * (--format mem0) to POST /v1/memories/import in parts (each part a request, written in the
 * service's batches), with a progress bar on a terminal. A part holds at most --chunk records
 * and --chunk-bytes bytes, so that no request comes near HTTP_REQUEST_TIMEOUT_MS or
 * IMPORT_MAX_BYTES, whatever the file's size; the file's header line goes with every part (its
 * embedding identity lets the service reuse the vectors). Errors are reported with the file's
 * own line numbers (mem0: entry numbers). Exit 1 when a line failed, or when a part could not be
 * sent: the message then names the line to resume from (--from-line).
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
  --chunk N            at most N records per request (default 500)
  --chunk-bytes N      at most N bytes per request (default 16777216, 16 MiB; a longer line goes alone)
  --from-line N        start at line N of the file (mem0: entry N), to resume an interrupted import`;

/** A positive integer flag, or exit 1 naming it. */
function positive(values: Record<string, unknown>, name: string): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < 1) fail(`--${name} must be a positive integer`);
  return value;
}

async function main(): Promise<void> {
  const { values, positionals, common } = parse(
    {
      ...COMMON_FLAGS,
      'on-conflict': { type: 'string', default: 'skip' },
      'dry-run': { type: 'boolean', default: false },
      format: { type: 'string', default: 'atrium' },
      chunk: { type: 'string', default: '500' },
      'chunk-bytes': { type: 'string', default: String(16 * 1024 * 1024) },
      'from-line': { type: 'string', default: '1' },
    },
    USAGE,
  );
  const [file] = positionals;
  if (!file) fail(USAGE);
  const onConflict = values['on-conflict'] as string;
  if (!['skip', 'overwrite', 'new_id'].includes(onConflict)) fail('--on-conflict must be skip, overwrite or new_id');
  const format = values.format as string;
  if (format !== 'atrium' && format !== 'mem0') fail('--format must be atrium or mem0');
  const chunk = positive(values, 'chunk');
  const chunkBytes = positive(values, 'chunk-bytes');
  const fromLine = positive(values, 'from-line');

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

  /** One part; when it cannot be sent, exit 1 with the line to resume from (what came before is written). */
  const sendPart = async (body: string, firstLine: number): Promise<ImportResult> => {
    try {
      return await client.import(options, body);
    } catch (error) {
      process.stdout.write(`${JSON.stringify(total)}\n`);
      const reason = error instanceof Error ? error.message : String(error);
      return fail(
        `import stopped at line ${firstLine}: ${reason}\n` +
          `The lines before it were imported. Resume with --from-line ${firstLine} (with --on-conflict skip, running the whole file again is also safe).`,
      );
    }
  };

  if (format === 'mem0') {
    const entries = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!Array.isArray(entries)) fail(`${file}: mem0's export is a JSON array`);
    const bar = progress('importing |{bar}| {value}/{total} entries', entries.length);
    for (let start = fromLine - 1; start < entries.length; start += chunk) {
      const part = await sendPart(JSON.stringify(entries.slice(start, start + chunk)), start + 1);
      add(part, (line) => start + line);
      bar.update(Math.min(start + chunk, entries.length));
    }
    bar.stop();
  } else {
    const bar = progress('importing |{bar}| {percentage}% {value}/{total} bytes', statSync(file).size);
    let header: string | null = null;
    let lines: string[] = [];
    let partBytes = 0;
    let first = 0;
    let number = 0;
    let bytes = 0;
    const send = async (): Promise<void> => {
      if (lines.length === 0) return;
      const body = `${header === null ? '' : `${header}\n`}${lines.join('\n')}\n`;
      const offset = header === null ? 0 : 1;
      const start = first;
      add(await sendPart(body, start), (line) => start + line - 1 - offset);
      lines = [];
      partBytes = 0;
      bar.update(bytes);
    };
    for await (const line of createInterface({ input: createReadStream(file), crlfDelay: Infinity })) {
      number++;
      const size = Buffer.byteLength(line) + 1;
      bytes += size;
      if (number === 1 && line.includes('"format"')) {
        header = line;
        continue;
      }
      if (number < fromLine) continue;
      if (lines.length > 0 && partBytes + size + (header === null ? 0 : Buffer.byteLength(header) + 1) > chunkBytes) await send();
      if (lines.length === 0) first = number;
      lines.push(line);
      partBytes += size;
      if (lines.length >= chunk) await send();
    }
    await send();
    bar.stop();
  }
  process.stdout.write(`${JSON.stringify(total)}\n`);
  if (total.failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
