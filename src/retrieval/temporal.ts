/**
 * Dates in questions and memories, for re-ranking /search candidates.
 *
 * A question that names a time ("in June", "in July 2023", "on May 3, 2023") is about
 * memories from then, or told shortly after. A memory's date is the date written at the
 * start of its text when there is one (chat turns stored as `[1:56 pm on 8 May, 2023] ...`
 * carry the session date there), else when it was stored. Candidates whose date falls in
 * the question's window get a relevance bonus; nothing is filtered out (the question's time
 * may be phrased loosely, and an answer may come later than the window).
 */
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH = `(${MONTHS.join('|')})`;
const DAY_MS = 86_400_000;
/** How long after the named period a memory can still be telling about it. */
const TELLING_DELAY_DAYS = 31;

export interface TimeWindow {
  from: number;
  to: number;
  /** Without a year the window is a month of any year. */
  anyYear: boolean;
}

const monthIndex = (name: string): number => MONTHS.indexOf(name.toLowerCase());

/** The window a question names, or null. "May" alone is taken as the month only when a time word or a preposition precedes it. */
export function questionWindow(question: string): TimeWindow | null {
  const q = question.toLowerCase();
  const dayFirst = new RegExp(`\\b(\\d{1,2}) ${MONTH},? (\\d{4})\\b`).exec(q);
  const monthFirst = new RegExp(`\\b${MONTH} (\\d{1,2}),? (\\d{4})\\b`).exec(q);
  if (dayFirst || monthFirst) {
    const [day, month, year] = dayFirst
      ? [Number(dayFirst[1]), monthIndex(dayFirst[2]), Number(dayFirst[3])]
      : [
          Number((monthFirst as RegExpExecArray)[2]),
          monthIndex((monthFirst as RegExpExecArray)[1]),
          Number((monthFirst as RegExpExecArray)[3]),
        ];
    const at = Date.UTC(year, month, day);
    return { from: at - DAY_MS, to: at + 8 * DAY_MS, anyYear: false };
  }
  const monthYear = new RegExp(`\\b(?:in|during|of|since|before|after|early|late|mid) ${MONTH}(?:,? (\\d{4}))?\\b`).exec(q);
  if (!monthYear) return null;
  const month = monthIndex(monthYear[1]);
  const year = monthYear[2] ? Number(monthYear[2]) : 2000;
  const from = Date.UTC(year, month, 1);
  const to = Date.UTC(year, month + 1, 1) + TELLING_DELAY_DAYS * DAY_MS;
  return { from, to, anyYear: !monthYear[2] };
}

const LEADING_DATE = new RegExp(`^\\s*\\[[^\\]]*?\\b(\\d{1,2}) ${MONTH},? (\\d{4})[^\\]]*\\]`, 'i');

/** The date a memory is about: the one at the start of its text, else when it was stored. */
export function memoryTime(content: string, createdAt: Date): number {
  const m = LEADING_DATE.exec(content);
  if (m) return Date.UTC(Number(m[3]), monthIndex(m[2]), Number(m[1]));
  return new Date(createdAt).getTime();
}

export function inWindow(window: TimeWindow, time: number): boolean {
  if (!window.anyYear) return time >= window.from && time < window.to;
  // Same span in the memory's own year (and the year before, for a window crossing New Year).
  const year = new Date(time).getUTCFullYear();
  for (const shift of [year - 2000, year - 2001]) {
    const from = new Date(window.from);
    from.setUTCFullYear(from.getUTCFullYear() + shift);
    const to = new Date(window.to);
    to.setUTCFullYear(to.getUTCFullYear() + shift);
    if (time >= from.getTime() && time < to.getTime()) return true;
  }
  return false;
}
