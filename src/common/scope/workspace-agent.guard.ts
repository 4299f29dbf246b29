import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';

import { parseMemoryScope } from './parse-memory-scope';
import { rawScopeFrom } from './scope-source';

/**
 * Runs before pipes, DTO validation and the service: a request whose scope parameters are
 * invalid (above all a workspace read without agent_id) is rejected here with 400, before any
 * database work. Same parser as @Scope(), so guard and handler can never disagree.
 */
@Injectable()
export class WorkspaceAgentGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    parseMemoryScope(rawScopeFrom(context.switchToHttp().getRequest<Request>()));
    return true;
  }
}
