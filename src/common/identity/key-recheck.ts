import { createParamDecorator, SetMetadata, type ExecutionContext } from '@nestjs/common';

import type { AuthenticatedRequest, KeyRecheck } from './principal';

export type { KeyRecheck } from './principal';

export const KEY_CHECKED_IN_STATEMENT = 'atrium:key-checked-in-statement';

/**
 * On a route whose handler passes `@CallerKeyRecheck()` down to a statement that re-checks the
 * key (VectorSearch.gatedNearest). The guard then authenticates from memory; without this
 * marker every request reads the key row.
 */
export const KeyCheckedInStatement = (): MethodDecorator => SetMetadata(KEY_CHECKED_IN_STATEMENT, true);

/** `@CallerKeyRecheck() recheck: KeyRecheck | null`: null without a key (AUTH_MODE=off). */
export const CallerKeyRecheck = createParamDecorator(
  (_data: unknown, ctx: ExecutionContext): KeyRecheck | null => ctx.switchToHttp().getRequest<AuthenticatedRequest>().keyRecheck ?? null,
);
