import { Allow } from 'class-validator';

/**
 * The scope parameters. They are validated by parseMemoryScope (guard and @Scope()), not
 * here; declaring them keeps the whitelist from rejecting them.
 */
export class ScopeFieldsDto {
  @Allow() user_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() agent_id?: unknown;
  @Allow() agent_scope?: unknown;
}

/** Writes take no agent_scope: a write belongs to the calling agent. */
export class WriterScopeFieldsDto {
  @Allow() user_id?: unknown;
  @Allow() workspace_id?: unknown;
  @Allow() agent_id?: unknown;
}
