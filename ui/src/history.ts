import { AtriumError, type AtriumClient, type MemoryHistory, type ScopeInput } from '../../src/client';

/**
 * A memory's history (CONTRACT section 12, `GET /v1/memories/:id/history`, the client's
 * `history`). A service without the route (an older one: 404 or 405 for a memory the page
 * could read) has no history to show, and the page says so; it never makes versions up.
 */
export type HistoryResult = { kind: 'versions'; history: MemoryHistory } | { kind: 'unavailable'; status: number };

export async function fetchHistory(client: AtriumClient, id: string, scope: ScopeInput): Promise<HistoryResult> {
  try {
    return { kind: 'versions', history: await client.history({ ...scope, id }) };
  } catch (error) {
    if (error instanceof AtriumError && (error.status === 404 || error.status === 405))
      return { kind: 'unavailable', status: error.status };
    throw error;
  }
}
