import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** CONTRACT section 1: every error body (except the config route's, below). */
@ApiSchema({ name: 'Error', description: 'The error envelope of every route: one human-readable message, naming the field for 400.' })
export class ErrorDoc {
  @ApiProperty({ type: String, example: 'limit must be between 1 and 100' })
  error: string;
}
