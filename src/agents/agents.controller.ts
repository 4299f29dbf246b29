import { Body, Controller, Get, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { CallerActor, CallerPrincipal } from '../common/identity/caller.decorator';
import type { Actor, Principal } from '../common/identity/principal';
import { agentIdForPrincipal, userIdForPrincipal } from '../common/scope/bind-scope';
import { ApiErrors, ApiInternalError, ApiKeyAuth } from '../openapi/api-errors';
import { AgentTrustDoc, AgentTrustStoredDoc } from './agent.responses';
import { GetTrustQueryDto, PutTrustDto } from './agents.dto';
import { AgentsService } from './agents.service';

const KEY_ERRORS = ['user_id (string) is required', 'agent_id must be a valid UUID'];

@ApiTags('Agents')
@ApiInternalError()
@ApiKeyAuth()
@Controller('v1/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get('trust')
  @ApiOperation({ summary: "An agent's trust level", description: 'An agent with no stored level has the default, 0.5.' })
  @ApiOkResponse({ type: AgentTrustDoc, description: 'The stored or default trust level.' })
  @ApiErrors({ 400: KEY_ERRORS })
  getTrust(@Query() q: GetTrustQueryDto, @CallerPrincipal() principal: Principal) {
    return this.agents.getTrust(userIdForPrincipal(principal, q.user_id, 'read'), agentIdForPrincipal(principal, q.agent_id));
  }

  @Put('trust')
  @ApiOperation({ summary: "Set an agent's trust level", description: 'Keyed by (user_id, agent_id).' })
  @ApiOkResponse({ type: AgentTrustStoredDoc, description: 'The stored level and name.' })
  @ApiErrors({
    400: [...KEY_ERRORS, 'trust_level must be a number between 0 and 1', 'display_name must be 1 to 200 characters'],
    body: true,
  })
  putTrust(@Body() dto: PutTrustDto, @CallerPrincipal() principal: Principal, @CallerActor() actor: Actor) {
    return this.agents.setTrust(
      userIdForPrincipal(principal, dto.user_id, 'manage'),
      dto.agent_id,
      dto.trust_level,
      dto.display_name,
      actor,
    );
  }
}
