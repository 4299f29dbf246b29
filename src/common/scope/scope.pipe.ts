import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';

import { DomainError, type DomainErrorCode } from '../errors/domain-error';
import type { MemoryScope, WorkspaceScope } from './memory-scope';
import { parseMemoryScope, type RawScopeInput } from './parse-memory-scope';
import { rawScopeFrom } from './scope-source';

/** Turns raw scope parameters into a MemoryScope with the one parser. */
@Injectable()
export class ScopePipe implements PipeTransform<RawScopeInput, MemoryScope> {
  transform(raw: RawScopeInput): MemoryScope {
    return parseMemoryScope(raw);
  }
}

/**
 * A workspace scope, for the routes that exist only for workspace memories (visibility,
 * grants): a user scope is answered with `required` (a 400 that says why), so the service
 * receives a WorkspaceScope and never checks the kind itself.
 */
export class WorkspaceScopePipe implements PipeTransform<RawScopeInput, WorkspaceScope> {
  constructor(private readonly required: Extract<DomainErrorCode, `${string}_NEEDS_WORKSPACE` | `${string}_NEED_WORKSPACE`>) {}

  transform(raw: RawScopeInput): WorkspaceScope {
    const scope = parseMemoryScope(raw);
    if (scope.kind !== 'workspace') throw new DomainError(this.required);
    return scope;
  }
}

/** The raw scope parameters of a request (query on GET/DELETE, body otherwise), bound to its key. */
export const RawScope = createParamDecorator((_data: unknown, ctx: ExecutionContext): RawScopeInput => {
  return rawScopeFrom(ctx.switchToHttp().getRequest<Request>());
});

/** `@Scope() scope: MemoryScope` in a controller method. */
export const Scope = (): ParameterDecorator => RawScope(ScopePipe);

/**
 * `@WorkspaceOnly('GRANTS_NEED_WORKSPACE') scope: WorkspaceScope`: the route's scope, which
 * must be a workspace's. Put it after the parameters whose validation should answer first
 * (ids, the body): it runs in parameter order, like the service check it replaces did after them.
 */
export const WorkspaceOnly = (required: ConstructorParameters<typeof WorkspaceScopePipe>[0]): ParameterDecorator =>
  RawScope(new WorkspaceScopePipe(required));
