/** Small HTTP helpers for the fault suite: every network failure is kept, never thrown. */

export interface Answer {
  route: string;
  status: number | 'network-error';
  body?: unknown;
  retryAfter?: string | null;
  error?: string;
}

export async function call(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const route = `${method} ${path.split('?')[0]}`;
  try {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: left as text, and judged by the caller
    }
    return { route, status: res.status, body: parsed, retryAfter: res.headers.get('retry-after') };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return { route, status: 'network-error', error: cause?.code ?? cause?.message ?? (error as Error).message };
  }
}

/**
 * What every answer of the service must be: a 2xx; a 4xx in the `{ error }` envelope; or a
 * 503 in the envelope with Retry-After (database or embedding provider unavailable).
 * Never a 500, never a dropped connection. Returns the problem, or undefined.
 */
/** MCP's own envelope for a request it refuses (invalid JSON-RPC, wrong Accept): a JSON-RPC error. */
function isJsonRpcError(body: unknown): boolean {
  const error = (body as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } } | null)?.error;
  return typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string';
}

export function judge(answer: Answer): string | undefined {
  const { status, body } = answer;
  if (status === 'network-error') return `${answer.route}: connection dropped (${answer.error})`;
  if (status >= 200 && status < 300) return undefined;
  const envelope =
    (typeof body === 'object' && body !== null && typeof (body as { error?: unknown }).error === 'string') ||
    (answer.route === 'POST /mcp' && isJsonRpcError(body));
  if (status >= 400 && status < 500)
    return envelope ? undefined : `${answer.route}: ${status} without the envelope: ${JSON.stringify(body).slice(0, 200)}`;
  if (status === 503) return envelope && answer.retryAfter ? undefined : `${answer.route}: 503 without envelope or Retry-After`;
  return `${answer.route}: ${status} ${JSON.stringify(body).slice(0, 300)}`;
}

export async function metricValue(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = new RegExp(`^${name} (\\S+)$`, 'm').exec(text);
  return match ? Number(match[1]) : 0;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
