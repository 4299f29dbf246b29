import { Controller, Get, Query, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';

import { DomainError } from '../common/errors/domain-error';
import { calledWithAdminToken } from '../common/identity/principal';
import { Access } from '../common/identity/route-access';
import { isUuid, parseMemoryScope, SCOPE_MESSAGES } from '../common/scope/parse-memory-scope';
import { rawScopeFrom } from '../common/scope/scope-source';
import { ADMIN_SECURITY, ApiErrors, ApiInternalError, ApiKeyAuth, READ_SCOPE_ERRORS } from '../openapi/api-errors';
import { ExportQueryDto } from './dto/export-query.dto';
import { ExportService, type ExportSource } from './export.service';

export const NDJSON = 'application/x-ndjson';

/**
 * GET /v1/memories/export (CONTRACT section 13). With an API key (or AUTH_MODE=off), what the
 * caller's scope may read, exactly as list; with the admin token, every row of `user_id` (or of
 * its `workspace_id`), any visibility. The lines are written as the client reads them: when
 * `res.write()` says the socket's buffer is full, the next page waits for `drain`; a client that
 * goes away stops the export.
 */
@ApiTags('Your data')
@ApiInternalError()
@ApiKeyAuth()
@ApiBearerAuth(ADMIN_SECURITY)
@Controller('v1/memories')
export class ExportController {
  constructor(private readonly exports: ExportService) {}

  @Get('export')
  @Access('key-or-admin')
  @ApiOperation({
    summary: 'Export memories (NDJSON)',
    description:
      'A header line `{format: "atrium.export", version: 1, exported_at, scope, embedding: {provider, model, dimensions}}`, ' +
      'one line per memory the caller can see (the record with `version`, `expires_at`, `valid_until`; for the owner its ' +
      '`grants`; `embedding` with include_vectors=true), oldest first, and `{end: true, count}`. A stream without its end ' +
      'line is incomplete. With the admin token: every memory of `user_id` (or of its `workspace_id`), every visibility.',
  })
  @ApiOkResponse({ description: 'The export, one JSON object per line.', content: { [NDJSON]: { schema: { type: 'string' } } } })
  @ApiErrors({ 400: [...READ_SCOPE_ERRORS, 'include_vectors must be true or false', 'include_expired must be true or false'] })
  async export(@Req() req: Request, @Res() res: Response, @Query() q: ExportQueryDto): Promise<void> {
    const source = exportSourceOf(req);
    const lines = this.exports.lines(source, { includeVectors: q.include_vectors ?? false, includeExpired: q.include_expired ?? false });
    // The first line (and the first page's statement) before the status is sent: a database
    // that cannot be reached is still a 503 with a JSON body, not a broken stream.
    const first = await lines.next();
    res.status(200).setHeader('Content-Type', `${NDJSON}; charset=utf-8`);
    res.setHeader('Cache-Control', 'no-store');
    let gone = false;
    res.on('close', () => (gone = true));
    try {
      if (!first.done && !res.write(first.value)) await drainedOrClosed(res);
      for await (const chunk of lines) {
        if (gone) break;
        if (!res.write(chunk)) await drainedOrClosed(res);
      }
      res.end();
    } catch (error) {
      // Headers are out: end the stream without its end line, so the client knows it is incomplete.
      res.destroy(error as Error);
    }
  }
}

/** Resolves on `drain` or `close`, whichever comes first, and leaves no listener behind. */
function drainedOrClosed(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The admin's subject, or the caller's scope through the one parser (bound to its key). */
function exportSourceOf(req: Request): ExportSource {
  if (!calledWithAdminToken(req)) return { kind: 'scope', scope: parseMemoryScope(rawScopeFrom(req)) };
  const { user_id: userId, workspace_id: workspaceId } = req.query;
  // The user id is checked by the one parser (type, length); the workspace is optional here.
  parseMemoryScope({ user_id: userId });
  if (workspaceId !== undefined && !isUuid(workspaceId)) throw new DomainError('VALIDATION_FAILED', SCOPE_MESSAGES.workspaceId);
  return { kind: 'subject', userId: userId as string, workspaceId: workspaceId === undefined ? null : workspaceId.toLowerCase() };
}
