import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

/** CONTRACT section 1: every error body (except the config route's, below). */
@ApiSchema({ name: 'Error', description: 'The error envelope of every route: one human-readable message, naming the field for 400.' })
export class ErrorDoc {
  @ApiProperty({ type: String, example: 'limit must be between 1 and 100' })
  error: string;

  @ApiPropertyOptional({
    type: String,
    description: 'On a 502 or 503 of the embedding service: the request id (also `X-Request-Id`) under which the details are logged.',
    example: '0d6f3b2a-8c1e-4f57-9a2b-6e4d1c0b9f37',
  })
  request_id?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description:
      'On a 409 of POST /v1/admin/erase: the rows of the subject still found after the deletion, by table (the erasure was rolled back).',
    example: { memories: 0, lessons: 1 },
  })
  residue?: Record<string, number>;
}
