import { ApiProperty } from '@nestjs/swagger';

import type { ImportResultWire } from '../contract/wire-types';

class ImportErrorDoc {
  @ApiProperty({ type: 'integer', minimum: 1, description: '1-based line number (mem0: entry number).', example: 7 })
  line: number;

  @ApiProperty({ description: 'Why the line was not imported; names the field.', example: 'id must be a UUID' })
  error: string;
}

export class ImportResultDoc implements ImportResultWire {
  @ApiProperty({ type: 'integer', minimum: 0, description: 'Records written (with dry_run: that would be written).' })
  imported: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Records whose id exists (on_conflict=skip), or that appear twice in the file.',
  })
  skipped: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    description: 'Records the write gate refused (each recorded as a lesson, except in a dry run).',
  })
  blocked: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Bad lines and records that could not be written.' })
  failed: number;

  @ApiProperty({ type: [ImportErrorDoc], description: 'One per failed line (the first 1,000).' })
  errors: ImportErrorDoc[];
}
