import { registerDecorator, type ValidationOptions } from 'class-validator';

/**
 * The one timestamp format every DTO accepts (RFC 3339, the ISO-8601 profile the web uses):
 *
 *   2026-11-21                         a calendar date, midnight UTC
 *   2026-11-21T12:30Z                  minutes, seconds optional
 *   2026-11-21T12:30:05.123+01:00      fraction of a second (1 to 9 digits, kept to the millisecond)
 *
 * `T` may be lower-case; the offset is `Z` or `±HH:MM` and is required with a time. Anything
 * else (week dates, ordinal dates, basic format, comma fractions, hour-only times, dates that
 * do not exist such as 2026-02-30) is refused: `new Date` parses some of those differently or
 * not at all, and a value the validator accepts must never be one the service cannot read.
 */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):(\d{2})))?$/;

/** The instant a timestamp names, or undefined when it is not one this service accepts. */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TIMESTAMP.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', , sign, oh = '00', om = '00'] = m;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return undefined;
  const millis = Number(fraction.padEnd(3, '0').slice(0, 3));
  const offsetMinutes = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) : 0;
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0..99 as 1900..1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, millis);
  date.setTime(date.getTime() - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Like parseTimestamp, for values the DTO already validated: a failure here is a bug, not bad input. */
export function toTimestamp(value: string): Date {
  const date = parseTimestamp(value);
  if (!date) throw new Error(`timestamp passed validation but cannot be read: ${JSON.stringify(value)}`);
  return date;
}

export const TIMESTAMP_FORMAT_HINT = 'an RFC 3339 timestamp such as 2026-11-21T12:00:00Z or a date such as 2026-11-21';

/** A DTO field holding a timestamp in the one accepted format (see parseTimestamp). */
export function IsTimestamp(options?: ValidationOptions): PropertyDecorator {
  return (target: object, propertyName: string | symbol) => {
    registerDecorator({
      name: 'isTimestamp',
      target: target.constructor,
      propertyName: propertyName as string,
      options: { message: `$property must be ${TIMESTAMP_FORMAT_HINT}`, ...options },
      validator: { validate: (value: unknown) => parseTimestamp(value) !== undefined },
    });
  };
}
