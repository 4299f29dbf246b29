import { Body, Controller, Get, Put, Query } from '@nestjs/common';

import { GetTrustQueryDto, PutTrustDto } from './agents.dto';
import { AgentsService } from './agents.service';

@Controller('v1/agents')
export class AgentsController {
  constructor(private readonly agents: AgentsService) {}

  @Get('trust')
  getTrust(@Query() q: GetTrustQueryDto) {
    return this.agents.getTrust(q.user_id, q.agent_id);
  }

  @Put('trust')
  putTrust(@Body() dto: PutTrustDto) {
    return this.agents.setTrust(dto.user_id, dto.agent_id, dto.trust_level, dto.display_name);
  }
}
