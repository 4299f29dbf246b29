import fc from 'fast-check';

import { parseTimestamp } from '../../src/common/validation/timestamp';

describe('parseTimestamp (the one date parser of every DTO)', () => {
  it.each([
    ['2026-11-21', '2026-11-21T00:00:00.000Z'],
    ['2026-11-21T12:30Z', '2026-11-21T12:30:00.000Z'],
    ['2026-11-21T12:30:05Z', '2026-11-21T12:30:05.000Z'],
    ['2026-11-21t12:30:05z', '2026-11-21T12:30:05.000Z'],
    ['2026-11-21T12:30:05.1Z', '2026-11-21T12:30:05.100Z'],
    ['2026-11-21T12:30:05.123456789Z', '2026-11-21T12:30:05.123Z'],
    ['2026-11-21T12:30:05+01:00', '2026-11-21T11:30:05.000Z'],
    ['2026-11-21T00:30:00-02:30', '2026-11-21T03:00:00.000Z'],
    ['2024-02-29', '2024-02-29T00:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0099-06-01', '0099-06-01T00:00:00.000Z'],
  ])('reads %s as %s', (input, expected) => {
    expect(parseTimestamp(input)?.toISOString()).toBe(expected);
  });

  it.each([
    '2026-W01-1', // week date: passed the old ISO-8601 check, then new Date() could not read it
    '2026-W01',
    '2026-001', // ordinal date
    '2026-01-01T00:00:00,5Z', // comma fraction
    '20260101T000000Z', // basic format
    '2026-01-01T00Z', // hour only
    '2026-01-01T00:00:00', // a time without an offset is ambiguous
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-01-01T24:00:00Z',
    '2026-01-01T23:60:00Z',
    '2026-01-01T23:59:60Z',
    '2026-01-01T00:00:00+24:00',
    '+002026-01-01T00:00:00Z',
    '2026-01-01 00:00:00Z',
    ' 2026-01-01',
    '2026-01-01\n',
    'yesterday',
    '',
  ])('refuses %j', (input) => {
    expect(parseTimestamp(input)).toBeUndefined();
  });

  it('refuses anything that is not a string', () => {
    for (const value of [0, 1763700000000, null, undefined, {}, ['2026-01-01'], new Date()]) expect(parseTimestamp(value)).toBeUndefined();
  });

  it('reads back every instant written by toISOString', () => {
    const instants = fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(fc.property(instants, (date) => parseTimestamp(date.toISOString())?.getTime() === date.getTime()));
  });

  it('never returns an invalid date for any string', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789-:.TZ+W,tz '.split('')), maxLength: 30 }), (input) => {
        const date = parseTimestamp(input);
        return date === undefined || !Number.isNaN(date.getTime());
      }),
    );
  });
});
