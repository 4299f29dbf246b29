import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow } from 'class-validator';

import { AGENT_ID_SCHEMA, AGENT_SCOPE_SCHEMA, USER_ID_SCHEMA, WORKSPACE_ID_SCHEMA } from '../../openapi/scope.schema';

/*
 * The scope parameters. They are validated by parseMemoryScope (guard and @Scope()), not
 * here; declaring them keeps the whitelist from rejecting them. The @Api* decorators only
 * document them (query parameters on GET/DELETE, body fields on POST/PATCH). Each class
 * declares its own fields because @nestjs/swagger does not let a subclass make an
 * inherited optional property required.
 */

const IGNORED_AGENT_SCOPE = {
  ...AGENT_SCOPE_SCHEMA,
  description: 'Accepted and validated as on reads, and ignored: a write belongs to the calling agent.',
};

class UserIdField {
  @ApiProperty(USER_ID_SCHEMA)
  @Allow()
  user_id?: unknown;
}

/** Reads: every scope parameter, agent_scope narrowing whose memories are wanted. */
export class ScopeFieldsDto extends UserIdField {
  @ApiPropertyOptional(WORKSPACE_ID_SCHEMA)
  @Allow()
  workspace_id?: unknown;

  @ApiPropertyOptional(AGENT_ID_SCHEMA)
  @Allow()
  agent_id?: unknown;

  @ApiPropertyOptional(AGENT_SCOPE_SCHEMA)
  @Allow()
  agent_scope?: unknown;
}

/** Writes (ingest): the same parameters (CONTRACT section 2); agent_scope has no effect. */
export class WriterScopeFieldsDto extends UserIdField {
  @ApiPropertyOptional(WORKSPACE_ID_SCHEMA)
  @Allow()
  workspace_id?: unknown;

  @ApiPropertyOptional(AGENT_ID_SCHEMA)
  @Allow()
  agent_id?: unknown;

  @ApiPropertyOptional(IGNORED_AGENT_SCOPE)
  @Allow()
  agent_scope?: unknown;
}

/**
 * The owning agent of a workspace memory (visibility changes and grants); documented as
 * required because these routes answer 400 without a workspace.
 */
export class OwnerScopeFieldsDto extends UserIdField {
  @ApiProperty({ ...WORKSPACE_ID_SCHEMA, description: 'The workspace of the memory. Missing: 400 `workspace_id is required: ...`.' })
  @Allow()
  workspace_id?: unknown;

  @ApiProperty({
    ...AGENT_ID_SCHEMA,
    description: 'The calling agent, which must own the memory (else 403, or 404 when it cannot see it).',
  })
  @Allow()
  agent_id?: unknown;

  @ApiPropertyOptional(IGNORED_AGENT_SCOPE)
  @Allow()
  agent_scope?: unknown;
}
