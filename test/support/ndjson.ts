import type { Test } from 'supertest';

/** The body of an NDJSON response as its parsed lines (supertest does not parse that type). */
export async function ndjsonLines(req: Test): Promise<{ status: number; type: string; lines: Record<string, unknown>[]; text: string }> {
  const res = await req.buffer(true).parse((response, callback) => {
    let text = '';
    response.setEncoding('utf8');
    response.on('data', (chunk: string) => (text += chunk));
    response.on('end', () => callback(null, text));
  });
  const text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  const lines =
    res.status === 200
      ? text
          .split('\n')
          .filter((line) => line !== '')
          .map((line) => JSON.parse(line) as Record<string, unknown>)
      : [];
  return { status: res.status, type: String(res.headers['content-type'] ?? ''), lines, text };
}

/** The memory lines of an export (header and end line checked and removed). */
export function memoryLines(lines: Record<string, unknown>[]): Record<string, unknown>[] {
  const [header, ...rest] = lines;
  const end = rest.pop();
  if (header?.format !== 'atrium.export') throw new Error(`no header line: ${JSON.stringify(header)}`);
  if (end?.end !== true || end.count !== rest.length) throw new Error(`bad end line: ${JSON.stringify(end)} after ${rest.length} lines`);
  return rest;
}
