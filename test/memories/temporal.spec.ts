import { inWindow, memoryTime, questionWindow } from '../../src/retrieval/temporal';

const utc = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d);

describe('dates in questions and memories', () => {
  it('reads a full date in either order as a window from the day before to a week after', () => {
    for (const q of ['Who did Maria have dinner with on May 3, 2023?', 'What did Gina find on 3 May, 2023?']) {
      const w = questionWindow(q);
      expect(w).toEqual({ from: utc(2023, 5, 2), to: utc(2023, 5, 11), anyYear: false });
    }
  });

  it('reads "in <month> <year>" as that month plus a month for telling about it', () => {
    expect(questionWindow('What setback did Melanie face in October 2023?')).toEqual({
      from: utc(2023, 10, 1),
      to: utc(2023, 11, 1) + 31 * 86_400_000,
      anyYear: false,
    });
  });

  it('reads a month without a year as that month in any year', () => {
    const w = questionWindow('When did Melanie go camping in June?');
    expect(w?.anyYear).toBe(true);
    expect(inWindow(w!, utc(2023, 6, 20))).toBe(true);
    expect(inWindow(w!, utc(2021, 7, 15))).toBe(true);
    expect(inWindow(w!, utc(2023, 9, 1))).toBe(false);
  });

  it('does not take the verb "may" for the month', () => {
    expect(questionWindow('What may Caroline do next?')).toBeNull();
    expect(questionWindow('What did Caroline research?')).toBeNull();
  });

  it('dates a memory by the date at the start of its text, else by when it was stored', () => {
    expect(memoryTime('[1:56 pm on 8 May, 2023] Caroline: hi', new Date('2026-01-01T00:00:00Z'))).toBe(utc(2023, 5, 8));
    expect(memoryTime('no date here, 8 May, 2023 is later in the text', new Date('2026-01-01T00:00:00Z'))).toBe(utc(2026, 1, 1));
  });
});
