/**
 * Character tables used by normalisation. Kept apart from the logic so a reviewer can check
 * them at a glance; every entry maps one UTF-16 unit to one, which keeps the matching copies
 * aligned index-for-index with the normalised text (excerpts are cut by index).
 */

/** Zero-width and other invisible characters removed before anything else. */
export const INVISIBLE_CHARS =
  /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180E\u200B-\u200F\u2060-\u2064\u206A-\u206F\u3164\uFEFF\uFFA0]/g;

/**
 * Invisibles that can only be there to split a word: ZWJ/ZWNJ are left out because Persian,
 * Indic scripts and emoji sequences use them legitimately.
 */
export const SPLITTING_INVISIBLES = /[\u200B\u200E\u200F\u2060-\u2064\uFEFF\u180E]/;

/** Bidirectional embedding, override and isolate controls ("Trojan Source" style reordering). */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Unicode tag characters (U+E0000 block): invisible, and able to smuggle a whole ASCII string. */
export const TAG_CHARS = /[\u{E0000}-\u{E007F}]/u;

/** Variation selectors carry no text, but long runs of them can encode a hidden payload. */
export const VARIATION_SELECTORS = /[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/gu;

/**
 * Cyrillic and Greek letters that look like Latin ones (lower case: matching runs after
 * lowercasing, so capital look-alikes such as В/Н/Т arrive here as в/н/т).
 */
export const HOMOGLYPHS_TO_LATIN: Readonly<Record<string, string>> = {
  // Cyrillic
  а: 'a',
  в: 'b',
  е: 'e',
  ё: 'e',
  к: 'k',
  м: 'm',
  н: 'h',
  о: 'o',
  п: 'n',
  р: 'p',
  с: 'c',
  т: 't',
  у: 'y',
  х: 'x',
  ь: 'b',
  і: 'i',
  ї: 'i',
  ј: 'j',
  ѕ: 's',
  ԁ: 'd',
  ӏ: 'l',
  ԛ: 'q',
  ԝ: 'w',
  һ: 'h',
  ɡ: 'g',
  ѵ: 'v',
  ү: 'y',
  ҳ: 'x',
  ѳ: 'o',
  // Greek
  // μ, ω and γ are left out: "200µs", "10kΩ" and "IFNγ" are units and names, not disguises.
  α: 'a',
  β: 'b',
  ε: 'e',
  ζ: 'z',
  η: 'n',
  ι: 'i',
  κ: 'k',
  ν: 'v',
  ο: 'o',
  ρ: 'p',
  τ: 't',
  υ: 'u',
  χ: 'x',
  ϲ: 'c',
  ϳ: 'j',
};

/** The reverse direction, for a Latin letter slipped into a mostly Cyrillic word. */
export const LATIN_TO_CYRILLIC: Readonly<Record<string, string>> = {
  a: 'а',
  e: 'е',
  o: 'о',
  p: 'р',
  c: 'с',
  y: 'у',
  x: 'х',
  k: 'к',
  m: 'м',
  i: 'і',
  b: 'в',
  h: 'н',
  t: 'т',
};

/**
 * Latin letters NFKC leaves alone but that read as plain ASCII (small capitals, dotless i,
 * Latin alpha). Applied to the matching copy only: Turkish needs its dotless i intact.
 */
export const LATIN_LOOKALIKES: Readonly<Record<string, string>> = {
  ı: 'i',
  ɑ: 'a',
  ɡ: 'g',
  ᴀ: 'a',
  ʙ: 'b',
  ᴄ: 'c',
  ᴅ: 'd',
  ᴇ: 'e',
  ꜰ: 'f',
  ɢ: 'g',
  ʜ: 'h',
  ɪ: 'i',
  ᴊ: 'j',
  ᴋ: 'k',
  ʟ: 'l',
  ᴍ: 'm',
  ɴ: 'n',
  ᴏ: 'o',
  ᴘ: 'p',
  ʀ: 'r',
  ꜱ: 's',
  ᴛ: 't',
  ᴜ: 'u',
  ᴠ: 'v',
  ᴡ: 'w',
  ʏ: 'y',
  ᴢ: 'z',
};

/** Digits and symbols read as letters. `1` is ambiguous (i or l) and is resolved per word. */
export const LEET_TO_LATIN: Readonly<Record<string, string>> = {
  '0': 'o',
  '1': 'i',
  '3': 'e',
  '4': 'a',
  '5': 's',
  '7': 't',
  '@': 'a',
  $: 's',
};
