/**
 * Splits a write into the sentences the gate judges one by one: at line breaks and after
 * sentence-ending punctuation (. ! ? and their CJK forms). Speaker labels ("user:") stay on the
 * line; the gate does not care who spoke, the extractor does.
 */
const SENTENCE_END = /(?<=[.!?])\s+(?=[\p{Lu}\p{N}"'(<\[{*#])|(?<=[。！？])/u;

/** Sentences are not split further past this many; a longer input is judged in these pieces. */
const MAX_SEGMENTS = 400;

export function inputSegments(text: string): string[] {
  const segments: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const piece of line.split(SENTENCE_END)) {
      const trimmed = piece.trim();
      if (trimmed) segments.push(trimmed);
    }
  }
  if (segments.length <= MAX_SEGMENTS) return segments;
  // Pathological inputs: join neighbours so the count stays bounded and the work linear.
  const size = Math.ceil(segments.length / MAX_SEGMENTS);
  const joined: string[] = [];
  for (let i = 0; i < segments.length; i += size) joined.push(segments.slice(i, i + size).join(' '));
  return joined;
}

/** Whitespace collapsed: how the extractor writes a fact, and how facts are matched to sentences. */
export const flatten = (text: string): string => text.replace(/\s+/g, ' ').trim();
