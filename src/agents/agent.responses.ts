import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { AGENT_EXAMPLE } from '../openapi/scope.schema';

/** Response shapes of /v1/agents/trust (src/agents/agents.service.ts, CONTRACT section 8). */

@ApiSchema({ name: 'AgentTrust' })
export class AgentTrustDoc {
  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  agent_id: string;

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, description: '0.5 for an agent with no stored level.', example: 0.5 })
  trust_level: number;
}

@ApiSchema({ name: 'AgentTrustStored' })
export class AgentTrustStoredDoc {
  @ApiProperty({ type: String, format: 'uuid', example: AGENT_EXAMPLE })
  agent_id: string;

  @ApiProperty({ type: Number, minimum: 0, maximum: 1, example: 0.2 })
  trust_level: number;

  @ApiProperty({
    type: String,
    nullable: true,
    description: 'The stored name (an omitted display_name keeps the previous one).',
    example: 'web scraper',
  })
  display_name: string | null;
}
