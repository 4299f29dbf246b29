export const MAX_EXCERPT = 80;

/**
 * At most MAX_EXCERPT characters of `text` around [start, end): the match itself when it is
 * that long, else the match with context on both sides. Never splits a surrogate pair.
 */
export function excerptAround(text: string, start: number, end: number): string {
  let from: number;
  let to: number;
  if (end - start >= MAX_EXCERPT) {
    from = start;
    to = start + MAX_EXCERPT;
  } else {
    const pad = Math.floor((MAX_EXCERPT - (end - start)) / 2);
    from = Math.max(0, start - pad);
    to = Math.min(text.length, from + MAX_EXCERPT);
    from = Math.max(0, to - MAX_EXCERPT);
  }
  if (isLowSurrogate(text.charCodeAt(from))) from++;
  if (to < text.length && isLowSurrogate(text.charCodeAt(to))) to--;
  return text.slice(from, to).trim();
}

/** Excerpt around the first occurrence of `needle`, or the start of the text. */
export function excerptOf(text: string, needle: string): string {
  const at = needle ? text.indexOf(needle) : -1;
  return at < 0 ? excerptAround(text, 0, 0) : excerptAround(text, at, at + needle.length);
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
