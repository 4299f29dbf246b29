#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { AtriumClient } from '../../client';
import { createToolServer } from '../tools/server';
import { clientBackend, stdioConfigFrom } from './client-backend';

/**
 * `atrium-mcp` (package.json `bin`): an MCP server on stdin/stdout for desktop and IDE clients,
 * calling a running Atrium over HTTP with the typed client (CONTRACT section 11). Configured by
 * ATRIUM_URL and ATRIUM_API_KEY, or without a key ATRIUM_USER_ID, ATRIUM_WORKSPACE_ID and
 * ATRIUM_AGENT_ID. stdout carries protocol messages only; everything else goes to stderr.
 */
const log = (line: string): void => void process.stderr.write(`atrium-mcp: ${line}\n`);

async function main(): Promise<void> {
  const config = stdioConfigFrom(process.env);
  const client = new AtriumClient({ baseUrl: config.url, apiKey: config.apiKey });
  const server = createToolServer(clientBackend(client, config), {
    called: () => undefined,
    failed: (tool, error) => log(`${tool} failed: ${error instanceof Error ? error.message : String(error)}`),
  });
  await server.connect(new StdioServerTransport());
  log(`serving ${config.url} as ${config.identity.kind === 'key' ? 'the API key' : config.identity.kind} over stdio`);
}

main().catch((error: unknown) => {
  log(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
