import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { AGENT_EXAMPLE, TIME_EXAMPLE, UUID_EXAMPLE } from '../openapi/scope.schema';

/** OpenAPI classes of the grant routes' responses (CONTRACT section 5, grants). */

@ApiSchema({ name: 'Grant' })
export class GrantDoc {
  @ApiProperty({ type: String, format: 'uuid', example: UUID_EXAMPLE })
  memory_id: string;

  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  grantee_agent_id: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;
}

@ApiSchema({ name: 'GrantEntry' })
export class GrantEntryDoc {
  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  grantee_agent_id: string;

  @ApiProperty({ type: String, format: 'date-time', example: TIME_EXAMPLE })
  created_at: string;
}

@ApiSchema({ name: 'GrantList' })
export class GrantListDoc {
  @ApiProperty({ type: [GrantEntryDoc] })
  grants: GrantEntryDoc[];

  @ApiProperty({ type: 'integer', minimum: 0, description: '`grants.length`.', example: 1 })
  count: number;
}
