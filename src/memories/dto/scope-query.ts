import { createParamDecorator, ExecutionContext, PipeTransform, type Type } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import type { Request } from 'express';

import type { MemoryScope, WorkspaceScope } from '../../common/scope/memory-scope';
import type { RawScopeInput } from '../../common/scope/parse-memory-scope';
import { rawScopeFrom } from '../../common/scope/scope-source';
import { ScopePipe, WorkspaceScopePipe } from '../../common/scope/scope.pipe';
import { createValidationPipe } from '../../common/validation/validation.pipe';
import { OwnerScopeFieldsDto, ScopeFieldsDto } from './scope-fields.dto';

/**
 * The scope of a GET or DELETE route whose query string holds the scope parameters and
 * nothing else (get, delete, grants list and revoke): one decorator that parses the scope,
 * refuses any other query parameter (400 `<name>: property <name> should not exist`, as the
 * whitelist of a query DTO answers) and documents the parameters, instead of an unused
 * `@Query() _q: ScopeQueryDto` beside `@Scope()`.
 */
interface ScopeRequest {
  raw: RawScopeInput;
  query: unknown;
}

const ScopeRequestParam = createParamDecorator((_data: unknown, ctx: ExecutionContext): ScopeRequest => {
  const req = ctx.switchToHttp().getRequest<Request>();
  return { raw: rawScopeFrom(req), query: req.query };
});

class ScopeQueryPipe<S> implements PipeTransform<ScopeRequest, Promise<S>> {
  private readonly validation = createValidationPipe();

  constructor(
    private readonly fields: Type<unknown>,
    private readonly scope: PipeTransform<RawScopeInput, S>,
  ) {}

  async transform(request: ScopeRequest): Promise<S> {
    await this.validation.transform(request.query, { type: 'query', metatype: this.fields });
    return this.scope.transform(request.raw, { type: 'custom' });
  }
}

function scopeQuery<S>(fields: Type<unknown>, scope: PipeTransform<RawScopeInput, S>): ParameterDecorator {
  return (target, key, index) => {
    ScopeRequestParam(new ScopeQueryPipe(fields, scope))(target, key, index);
    // The parameters in the document: the fields of the scope DTO, as query parameters.
    const method = key === undefined ? undefined : Object.getOwnPropertyDescriptor(target, key);
    if (method) ApiQuery({ name: '', type: fields, required: false })(target, key as string | symbol, method);
  };
}

/** `@ScopeQuery() scope: MemoryScope` on a route whose query string is the scope parameters alone. */
export const ScopeQuery = (): ParameterDecorator => scopeQuery<MemoryScope>(ScopeFieldsDto, new ScopePipe());

/** `@OwnerScopeQuery('GRANTS_NEED_WORKSPACE') scope: WorkspaceScope`: the same, for an owning agent's workspace routes. */
export const OwnerScopeQuery = (required: ConstructorParameters<typeof WorkspaceScopePipe>[0]): ParameterDecorator =>
  scopeQuery<WorkspaceScope>(OwnerScopeFieldsDto, new WorkspaceScopePipe(required));
