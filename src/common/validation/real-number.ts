import { Transform } from 'class-transformer';

/** The smallest positive normal `real` (float4). */
const FLOAT4_MIN_NORMAL = 1.1754943508222875e-38;

/**
 * Numbers bound for a PostgreSQL `real` column (or compared with one). A double such as
 * 5e-324 is a valid number between 0 and 1, but float4 cannot hold it and PostgreSQL answers
 * "out of range" (a 500). Values too small for a normal float4 are stored as 0; everything
 * else is left as sent (float4 rounds it, as it would any other value).
 */
export function normaliseReal(value: unknown): unknown {
  return typeof value === 'number' && value !== 0 && Math.abs(value) < FLOAT4_MIN_NORMAL ? 0 : value;
}

/** DTO field for a `real` column: normalised before validation (see normaliseReal). */
export const ToReal = (): PropertyDecorator => Transform(({ value }) => normaliseReal(value));
