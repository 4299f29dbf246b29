import { createParamDecorator, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';

import type { MemoryScope } from './memory-scope';
import { parseMemoryScope, type RawScopeInput } from './parse-memory-scope';
import { rawScopeFrom } from './scope-source';

/** Turns raw scope parameters into a MemoryScope with the one parser. */
@Injectable()
export class ScopePipe implements PipeTransform<RawScopeInput, MemoryScope> {
  transform(raw: RawScopeInput): MemoryScope {
    return parseMemoryScope(raw);
  }
}

/** The raw scope parameters of a request (query on GET/DELETE, body otherwise). */
const RawScope = createParamDecorator((_data: unknown, ctx: ExecutionContext): RawScopeInput => {
  return rawScopeFrom(ctx.switchToHttp().getRequest<Request>());
});

/** `@Scope() scope: MemoryScope` in a controller method. */
export const Scope = (): ParameterDecorator => RawScope(ScopePipe);
