import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { Controller, Delete, Get, Logger, Post, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { DomainError } from '../common/errors/domain-error';
import { isDatabaseUnavailable } from '../database/database-errors';
import { MetricsService } from '../metrics/metrics.service';
import { mcpCallerOf } from './mcp-caller';
import { ServiceToolBackends } from './service-backend';
import { createToolServer, type ToolObserver } from './tools/server';

function headersOf(req: Request): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) headers.set(name, value.join(', '));
  }
  return headers;
}

/**
 * MCP over Streamable HTTP at /mcp (CONTRACT section 11), stateless: every POST carries its own
 * credential, is authenticated by the global AuthGuard like any /v1 route (401, the key's rate
 * limit, a revoked key refused on its next request), and gets a fresh MCP server bound to that
 * caller, which answers it as JSON and is dropped. No session lives in this process, so any
 * instance behind a load balancer can answer any request (docs/mcp.md). Not in the OpenAPI
 * document: the body is JSON-RPC, described by the MCP specification.
 */
@ApiExcludeController()
@Controller()
export class McpController {
  private readonly logger = new Logger('Mcp');

  private readonly observer: ToolObserver;

  constructor(
    private readonly backends: ServiceToolBackends,
    metrics: MetricsService,
  ) {
    this.observer = {
      called: (tool, outcome) => metrics.mcpToolCalls.inc({ tool, outcome }),
      // A lost database connection is the database's state, not a fault of the service: a
      // warning, as the HTTP routes answer it with a 503 and no error line.
      failed: (tool, error) =>
        isDatabaseUnavailable(error)
          ? this.logger.warn(`tool ${tool} failed: the database is unavailable (${error instanceof Error ? error.message : String(error)})`)
          : this.logger.error(`tool ${tool} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
    };
  }

  @Post('mcp')
  async post(@Req() req: Request, @Res() res: Response): Promise<void> {
    const caller = mcpCallerOf(req);
    const server = createToolServer(this.backends.for(caller), this.observer);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    try {
      await server.connect(transport);
      // The SDK's web-standard transport, given the body Express already parsed and checked:
      // it validates the JSON-RPC envelope, Accept and protocol version, runs the call, and
      // answers as JSON (no event stream), which is written back here as it is.
      const answer = await transport.handleRequest(
        new globalThis.Request(`http://mcp.local${req.originalUrl}`, { method: 'POST', headers: headersOf(req) }),
        {
          parsedBody: req.body as unknown,
        },
      );
      const body = await answer.text();
      res.status(answer.status);
      answer.headers.forEach((value, name) => res.setHeader(name, value));
      res.end(body);
    } finally {
      await transport.close().catch(() => undefined);
      await server.close().catch(() => undefined);
    }
  }

  /** No server-initiated stream and no session to end: both answer 405 (the MCP specification allows it). */
  @Get('mcp')
  stream(@Res() res: Response): never {
    res.setHeader('Allow', 'POST');
    throw new DomainError('MCP_METHOD_NOT_ALLOWED');
  }

  @Delete('mcp')
  end(@Res() res: Response): never {
    res.setHeader('Allow', 'POST');
    throw new DomainError('MCP_METHOD_NOT_ALLOWED');
  }
}
