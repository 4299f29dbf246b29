import { AtriumError, keysToCamel, keysToSnake, type ScopeInput } from '../../src/client';
import type { QueryValue } from '../../src/client/query-string';
import { HttpTransport } from '../../src/client/transport';
import type { Session } from './session';

/**
 * A memory's history (CONTRACT section 12, GET /v1/memories/:id/history), which arrives with
 * the lifecycle work. Until the typed client has its own `history` method this goes through
 * the client's transport (same headers, timeouts and error envelope). On a service without the
 * route (404 or 405 for a memory the page could read) it says so; it never makes versions up.
 */
export interface MemoryVersion {
  version: number;
  change: string;
  content: string;
  metadata: Record<string, unknown>;
  visibility: string | null;
  expiresAt: string | null;
  changedAt: string;
  agentId: string | null;
  keyId: string | null;
}

export type HistoryResult = { kind: 'versions'; versions: MemoryVersion[] } | { kind: 'unavailable'; status: number };

export async function fetchHistory(session: Session, id: string, scope: ScopeInput): Promise<HistoryResult> {
  const transport = new HttpTransport({ baseUrl: location.origin, apiKey: session.apiKey ?? undefined, retries: false, timeoutMs: 20_000 });
  try {
    const { data } = await transport.send({
      method: 'GET',
      path: `/v1/memories/${encodeURIComponent(id)}/history`,
      query: keysToSnake(scope) as Record<string, QueryValue>,
      idempotent: true,
    });
    const body = keysToCamel(data) as { versions?: MemoryVersion[] };
    return { kind: 'versions', versions: Array.isArray(body.versions) ? body.versions : [] };
  } catch (error) {
    if (error instanceof AtriumError && (error.status === 404 || error.status === 405))
      return { kind: 'unavailable', status: error.status };
    throw error;
  }
}
