/**
 * MCP's JSON-RPC on the wire, for suites that speak to POST /mcp with supertest or fetch rather
 * than the SDK's client (route coverage, the fault fuzzer). Streamable HTTP needs both types in
 * Accept; a stateless server takes tools/call without an initialize first.
 */
export const MCP_ACCEPT = 'application/json, text/event-stream';

export function toolCall(name: string, args: unknown, id: unknown = 1): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** X-Atrium-* identity headers (AUTH_MODE=off) for a user, or an agent in a workspace. */
export function mcpIdentity(scope: { user_id: string; workspace_id?: string; agent_id?: string }): Record<string, string> {
  const headers: Record<string, string> = { accept: MCP_ACCEPT, 'x-atrium-user-id': scope.user_id };
  if (scope.workspace_id) headers['x-atrium-workspace-id'] = scope.workspace_id;
  if (scope.agent_id) headers['x-atrium-agent-id'] = scope.agent_id;
  return headers;
}

/** A tool result as the JSON-RPC answer carries it. */
export interface WireToolResult {
  content: { type: string; text?: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toolResultOf(body: unknown): WireToolResult {
  const answer = body as { result?: WireToolResult; error?: unknown };
  if (!answer.result) throw new Error(`not a tool result: ${JSON.stringify(body).slice(0, 300)}`);
  return answer.result;
}
