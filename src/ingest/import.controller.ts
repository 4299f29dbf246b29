import { StringDecoder } from 'node:string_decoder';

import { Controller, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiBearerAuth, ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';

import { DomainError } from '../common/errors/domain-error';
import { CallerActor } from '../common/identity/caller.decorator';
import { calledWithAdminToken, type Actor } from '../common/identity/principal';
import { Access } from '../common/identity/route-access';
import { isUuid, parseMemoryScope, SCOPE_MESSAGES } from '../common/scope/parse-memory-scope';
import { rawScopeFrom } from '../common/scope/scope-source';
import type { ImportResultWire } from '../contract/wire-types';
import type { AppConfig } from '../env/app-config';
import { ADMIN_SECURITY, ApiErrors, ApiInternalError, ApiKeyAuth, SCOPE_ERRORS } from '../openapi/api-errors';
import { ImportQueryDto } from './import-query.dto';
import { BadLine, parseMem0Entry } from './import-records';
import { ImportResultDoc } from './import.responses';
import { ImportService, type ImportItem, type ImportTarget } from './import.service';

/** A line longer than this is reported as bad (a record's content, vector and metadata fit well inside). */
export const MAX_LINE_CHARS = 1_048_576;

const NDJSON = 'application/x-ndjson';

/** POST /v1/memories/import (CONTRACT section 13). */
@ApiTags('Your data')
@ApiInternalError()
@ApiKeyAuth()
@ApiBearerAuth(ADMIN_SECURITY)
@Controller('v1/memories')
export class ImportController {
  private readonly maxBytes: number;

  constructor(
    private readonly imports: ImportService,
    @Inject(ConfigService) config: AppConfig,
  ) {
    this.maxBytes = config.get('IMPORT_MAX_BYTES', { infer: true });
  }

  @Post('import')
  @HttpCode(200)
  @Access('key-or-admin')
  @ApiOperation({
    summary: 'Import memories (an Atrium export, or mem0’s)',
    description:
      'The body is an Atrium export (`application/x-ndjson`, as GET /v1/memories/export writes it) or, with `format=mem0`, ' +
      "mem0's export (a JSON array). Every record passes the write gate; vectors are reused when the file's embedding " +
      'identity is the service’s, else re-embedded; `created_at`, `metadata`, `visibility` and `expires_at` are kept. ' +
      'Records are written in batches, each in one transaction; a bad line is reported by number and the rest goes on. ' +
      'With an API key the records go into the caller’s scope (a workspace record belongs to the calling agent); with the ' +
      'admin token and `user_id`, each record keeps its workspace and agent. Bodies up to IMPORT_MAX_BYTES.',
  })
  @ApiConsumes(NDJSON, 'application/json')
  @ApiBody({ required: true, schema: { type: 'string', description: 'NDJSON (an Atrium export), or a JSON array with format=mem0.' } })
  @ApiOkResponse({ type: ImportResultDoc, description: 'What happened to each record; bad lines by number.' })
  @ApiErrors({
    400: [
      ...SCOPE_ERRORS,
      'on_conflict must be skip, overwrite or new_id',
      'dry_run must be true or false',
      'format must be atrium or mem0',
      'format=mem0 takes a JSON array',
    ],
    errors: ['GATE_BUDGET_EXCEEDED'],
    body: true,
    embeds: true,
  })
  async import(@Req() req: Request, @Query() q: ImportQueryDto, @CallerActor() actor: Actor): Promise<ImportResultWire> {
    const target = importTargetOf(req);
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > this.maxBytes) throw new DomainError('IMPORT_TOO_LARGE');
    const items = q.format === 'mem0' ? await this.mem0Items(req) : ImportService.atriumItems(lines(req, this.maxBytes));
    return this.imports.import(target, items, actor, { onConflict: q.on_conflict ?? 'skip', dryRun: q.dry_run ?? false });
  }

  /** mem0's export is one JSON array: read whole (bounded by IMPORT_MAX_BYTES), then entry by entry. */
  private async mem0Items(req: Request): Promise<AsyncIterable<ImportItem>> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    for await (const chunk of req as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > this.maxBytes) throw new DomainError('IMPORT_TOO_LARGE');
      chunks.push(chunk);
    }
    let entries: unknown;
    try {
      entries = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      throw new DomainError('VALIDATION_FAILED', 'format=mem0 takes a JSON array');
    }
    if (!Array.isArray(entries)) throw new DomainError('VALIDATION_FAILED', 'format=mem0 takes a JSON array');
    const list = entries as unknown[];
    return (async function* () {
      for (let i = 0; i < list.length; i++) {
        try {
          yield { line: i + 1, record: parseMem0Entry(list[i]) };
        } catch (error) {
          if (!(error instanceof BadLine)) throw error;
          yield { line: i + 1, record: error };
        }
      }
    })();
  }
}

/**
 * The body's lines, decoded as UTF-8 across chunk boundaries, read as the import consumes them.
 * A line longer than MAX_LINE_CHARS comes out as null (reported as bad); past `maxBytes` the
 * import stops with 413.
 */
export async function* lines(body: AsyncIterable<Buffer>, maxBytes: number): AsyncGenerator<string | null> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let overlong = false;
  let bytes = 0;
  for await (const chunk of body) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw new DomainError('IMPORT_TOO_LARGE');
    const parts = (rest + decoder.write(chunk)).split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) {
      yield overlong ? null : part;
      overlong = false;
    }
    if (rest.length > MAX_LINE_CHARS) {
      overlong = true;
      rest = '';
    }
  }
  rest += decoder.end();
  if (overlong) yield null;
  else if (rest.length > 0) yield rest;
}

/** The admin's subject, or the caller's scope through the one parser (bound to its key). */
function importTargetOf(req: Request): ImportTarget {
  if (!calledWithAdminToken(req)) return { kind: 'scope', scope: parseMemoryScope(rawScopeFrom(req)) };
  const { user_id: userId, workspace_id: workspaceId } = req.query;
  parseMemoryScope({ user_id: userId });
  if (workspaceId !== undefined && !isUuid(workspaceId)) throw new DomainError('VALIDATION_FAILED', SCOPE_MESSAGES.workspaceId);
  return { kind: 'subject', userId: userId as string, workspaceId: workspaceId === undefined ? null : workspaceId.toLowerCase() };
}
