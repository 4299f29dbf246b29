import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';

import { Access } from '../common/identity/route-access';
import { ADMIN_SECURITY, ApiAdminErrors, ApiErrors, ApiInternalError } from '../openapi/api-errors';
import { ExplainQueryDto } from './explain.dto';
import { VisibilityExplanationDoc } from './explain.responses';
import { VisibilityExplainer } from './explain.service';

/** The inspector's "why can this agent see it?"; the admin token only, like the other admin routes. */
@ApiTags('Admin')
@ApiBearerAuth(ADMIN_SECURITY)
@ApiAdminErrors()
@ApiInternalError()
@Access('admin')
@Controller('v1/admin')
export class ExplainController {
  constructor(private readonly explainer: VisibilityExplainer) {}

  @Get('explain')
  @ApiOperation({
    summary: 'Why an agent can or cannot read a memory',
    description:
      'Evaluates the read predicate of every memory read (agent_scope `all`) on one memory of the user, for one agent of a ' +
      'workspace, and names the rule that lets it through (`owner`, `workspace`, `grant`) or what keeps it out. Never the content.',
  })
  @ApiOkResponse({ type: VisibilityExplanationDoc, description: 'The verdict and its reason.' })
  @ApiErrors({
    400: [
      'user_id (string) is required',
      'workspace_id must be a valid UUID',
      'agent_id must be a valid UUID',
      'memory_id must be a valid UUID',
    ],
    errors: ['MEMORY_NOT_FOUND'],
  })
  explain(@Query() q: ExplainQueryDto) {
    return this.explainer.explain(q);
  }
}
