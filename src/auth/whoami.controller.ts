import { Controller, Get } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ApiOkResponse, ApiOperation, ApiProperty, ApiSchema, ApiTags } from '@nestjs/swagger';

import { assertNever } from '../common/errors/domain-error';
import { CallerPrincipal } from '../common/identity/caller.decorator';
import { KEY_ROLES, type Principal } from '../common/identity/principal';
import type { WhoAmIWire, WireKeyRole } from '../contract/admin-wire-types';
import type { SameKeys } from '../contract/wire-types';
import type { AppEnv } from '../env/env.schema';
import { ApiInternalError, ApiKeyAuth } from '../openapi/api-errors';
import { AGENT_EXAMPLE, UUID_EXAMPLE, WORKSPACE_EXAMPLE } from '../openapi/scope.schema';

@ApiSchema({ name: 'WhoAmI' })
export class WhoAmIDoc implements WhoAmIWire {
  @ApiProperty({ type: String, enum: ['off', 'api_key'], example: 'api_key' })
  auth_mode: 'off' | 'api_key';

  @ApiProperty({
    type: String,
    enum: ['open', ...KEY_ROLES],
    description: '`open` in AUTH_MODE=off (scope from the parameters); else the role of the key.',
    example: 'agent',
  })
  kind: 'open' | WireKeyRole;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, example: UUID_EXAMPLE })
  key_id: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The user a user or agent key is bound to.', example: 'alice' })
  user_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'An agent key’s workspace.', example: WORKSPACE_EXAMPLE })
  workspace_id: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'An agent key’s agent.', example: AGENT_EXAMPLE })
  agent_id: string | null;
}

const _whoAmIKeys: SameKeys<WhoAmIDoc, WhoAmIWire> = true;

/**
 * Who the presented credential is, as the guard resolved it: what a client (the inspector)
 * shows as "signed in as", and the scope a key's requests are bound to. A key route like any
 * other: 401 without a valid key in AUTH_MODE=api_key; it tells a key holder only its own key.
 */
@ApiTags('Auth')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1')
export class WhoAmIController {
  private readonly authMode: AppEnv['AUTH_MODE'];

  constructor(config: ConfigService<AppEnv, true>) {
    this.authMode = config.get('AUTH_MODE', { infer: true });
  }

  @Get('whoami')
  @ApiOperation({ summary: 'The caller’s identity', description: 'The auth mode and, with a key, its role and the ids it is bound to.' })
  @ApiOkResponse({ type: WhoAmIDoc, description: 'The caller.' })
  whoami(@CallerPrincipal() principal: Principal): WhoAmIWire {
    return { auth_mode: this.authMode, ...describe(principal) };
  }
}

function describe(principal: Principal): Omit<WhoAmIWire, 'auth_mode'> {
  const none = { key_id: null, user_id: null, workspace_id: null, agent_id: null };
  switch (principal.kind) {
    case 'open':
      return { kind: 'open', ...none };
    case 'service':
      return { ...none, kind: 'service', key_id: principal.keyId };
    case 'user':
      return { ...none, kind: 'user', key_id: principal.keyId, user_id: principal.userId };
    case 'agent':
      return {
        kind: 'agent',
        key_id: principal.keyId,
        user_id: principal.userId,
        workspace_id: principal.workspaceId,
        agent_id: principal.agentId,
      };
    default:
      return assertNever(principal);
  }
}
