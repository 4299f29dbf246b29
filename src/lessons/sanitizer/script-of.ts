/**
 * Script of a UTF-16 code unit, by range, for the hot loops of normalisation (a `\p{Script=}`
 * regex per character is several times slower on 100k-character inputs). Only the distinctions
 * the sanitizer needs: the three look-alike alphabets, and everything else.
 */
export type LetterScript = 'latin' | 'cyrillic' | 'greek' | 'other' | 'none';

export function scriptOf(code: number): LetterScript {
  if (code < 0x80) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) ? 'latin' : 'none';
  if (code >= 0xc0 && code <= 0x24f) return code === 0xd7 || code === 0xf7 ? 'none' : 'latin';
  if (code >= 0x250 && code <= 0x2af) return 'latin';
  if (code >= 0x370 && code <= 0x3ff) return 'greek';
  if (code >= 0x400 && code <= 0x52f) return 'cyrillic';
  if (code >= 0x1c80 && code <= 0x1c8f) return 'cyrillic';
  if (code >= 0x1d00 && code <= 0x1d7f) return 'latin';
  if (code >= 0x1e00 && code <= 0x1eff) return 'latin';
  if (code >= 0x1f00 && code <= 0x1fff) return 'greek';
  if (code >= 0x2de0 && code <= 0x2dff) return 'cyrillic';
  if (code >= 0xa640 && code <= 0xa69f) return 'cyrillic';
  if (code >= 0xa720 && code <= 0xa7ff) return 'latin';
  return 'other';
}
