import { randomUUID } from 'node:crypto';

/** Fresh ids per test file, so nothing depends on what another file wrote. */
export const newId = (): string => randomUUID();
export const newUser = (label = 'user'): string => `${label}-${randomUUID().slice(0, 8)}`;
