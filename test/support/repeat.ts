/**
 * How many times a repeated test (a property's sequences, a race's rounds) runs: `runs`, or a
 * fraction of it when TEST_REPEAT_FRACTION is set (0 < f <= 1). CI sets it for the PgBouncer
 * tier, which runs the suites a third time to check the statements through a transaction-mode
 * pooler: the full counts run in the embedded and the PostgreSQL tiers. Never below `floor`.
 */
export function repeatCount(runs: number, floor = 20): number {
  const raw = process.env.TEST_REPEAT_FRACTION;
  if (raw === undefined || raw === '') return runs;
  const fraction = Number(raw);
  if (!(fraction > 0 && fraction <= 1)) throw new Error(`TEST_REPEAT_FRACTION must be in (0, 1], got ${raw}`);
  return Math.max(Math.min(floor, runs), Math.round(runs * fraction));
}
