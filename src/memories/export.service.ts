import { Injectable } from '@nestjs/common';

import { scopeToWire } from '../common/scope/memory-scope';
import type { ExportedMemoryWire, ExportEndWire, ExportHeaderWire } from '../contract/wire-types';
import { MemoryAccess, type ExportRow, type ExportSource } from '../database/access/memory-access';
import { EmbeddingService } from '../embeddings/embedding.service';
import { toMemoryRecord } from './memory.mapper';

export type { ExportSource };

/** Rows per keyset page: one statement each; memory held is one page, whatever the export's size. */
export const EXPORT_PAGE_SIZE = 500;

export interface ExportOptions {
  includeVectors: boolean;
  includeExpired: boolean;
  /** Rows per statement (tests use small pages to cross many page boundaries). */
  pageSize?: number;
}

/**
 * GET /v1/memories/export (CONTRACT section 13): the header line, one line per memory the
 * source may read, oldest first, and the end line with the count. Lines are produced one page
 * at a time from the door's keyset pages (MemoryAccess.exportPage), so the consumer's pace
 * (the HTTP response's backpressure) decides when the next statement runs: the process holds
 * one page, never the export.
 */
@Injectable()
export class ExportService {
  constructor(
    private readonly access: MemoryAccess,
    private readonly embeddings: EmbeddingService,
  ) {}

  header(source: ExportSource): ExportHeaderWire {
    return {
      format: 'atrium.export',
      version: 1,
      exported_at: new Date().toISOString(),
      scope:
        source.kind === 'scope' ? scopeToWire(source.scope) : { kind: 'subject', user_id: source.userId, workspace_id: source.workspaceId },
      embedding: this.embeddings.description,
    };
  }

  /** The export's lines, each with its newline; the last one is the end line. */
  async *lines(source: ExportSource, options: ExportOptions): AsyncGenerator<string> {
    const pageSize = options.pageSize ?? EXPORT_PAGE_SIZE;
    // The first page is read before the header line is given out: the controller sends the
    // status once it has that line, so a database that fails on the first statement is a 503,
    // not a 200 whose stream breaks (the fault suite's terminations found it).
    let rows = await this.access.exportPage(source, null, pageSize, options);
    yield `${JSON.stringify(this.header(source))}\n`;
    let count = 0;
    for (;;) {
      if (rows.length > 0) {
        yield rows.map((row) => `${JSON.stringify(toExportedMemory(row))}\n`).join('');
        count += rows.length;
      }
      if (rows.length < pageSize) break;
      rows = await this.access.exportPage(source, rows[rows.length - 1].cursor, pageSize, options);
    }
    const end: ExportEndWire = { end: true, count };
    yield `${JSON.stringify(end)}\n`;
  }
}

export function toExportedMemory(row: ExportRow): ExportedMemoryWire {
  const line: ExportedMemoryWire = toMemoryRecord(row);
  if (row.grants !== null) {
    line.grants = row.grants.map((g) => ({ grantee_agent_id: g.grantee_agent_id, created_at: new Date(g.created_at).toISOString() }));
  }
  if (row.embedding !== null) line.embedding = JSON.parse(row.embedding) as number[];
  return line;
}
