import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';

import { actorOf, principalOf } from './principal';

/** `@CallerActor() actor: Actor`: the key and request id a change is recorded under. */
export const CallerActor = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  actorOf(ctx.switchToHttp().getRequest<Request>()),
);

/** `@CallerPrincipal() principal: Principal`: who the guard authenticated. */
export const CallerPrincipal = createParamDecorator((_data: unknown, ctx: ExecutionContext) =>
  principalOf(ctx.switchToHttp().getRequest<Request>()),
);
