/**
 * The small kit the corpus templates are written with: a seeded generator, slot filling and
 * variant collection. A template is one sentence shape with its own slots; every variant it
 * produces shares its `group`, so evaluation keeps a template's variants in one fold.
 */

export type Label = 'adversarial' | 'legitimate';

export interface CorpusEntry {
  text: string;
  label: Label;
  family: string;
  language: string;
  /** Entries of one group share a surface form (one template, or one hand-written entry). */
  group: string;
  /** The sanitizer category of a hand-written attack, kept for the rules-only tables. */
  category?: string;
}

export interface Rng {
  next(): number;
  int(max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
}

/** mulberry32: small, fast, and the same sequence on every machine for one seed. */
export function seededRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (max: number): number => Math.floor(next() * max);
  return { next, int, pick: (items) => items[int(items.length)], chance: (p) => next() < p };
}

export interface Template {
  name: string;
  label: Label;
  family: string;
  language: string;
  /** How many distinct variants to keep (fewer when the slots cannot produce that many). */
  count: number;
  make: (r: Rng) => string;
}

export const cap = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** Fills `{slot}` markers from the vocabularies, recursively (a filler may hold markers too). */
export function fill(r: Rng, pattern: string, slots: Record<string, readonly string[]>): string {
  let text = pattern;
  for (let depth = 0; depth < 4 && /\{[a-z0-9_]+\}/.test(text); depth++) {
    text = text.replace(/\{([a-z0-9_]+)\}/g, (whole, name: string) => {
      const options = slots[name];
      return options ? r.pick(options) : whole;
    });
  }
  return text;
}

export function variantsOf(template: Template, r: Rng): CorpusEntry[] {
  const seen = new Set<string>();
  const entries: CorpusEntry[] = [];
  for (let attempt = 0; attempt < template.count * 20 && entries.length < template.count; attempt++) {
    const text = template
      .make(r)
      .replace(/[ \t]+/g, ' ')
      .trim();
    const key = text.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({
      text,
      label: template.label,
      family: template.family,
      language: template.language,
      group: `${template.family}/${template.name}`,
    });
  }
  return entries;
}

/** A template whose variants come from one pattern list and shared slot vocabularies. */
export function patterned(
  base: Omit<Template, 'make'>,
  patterns: readonly string[],
  slots: Record<string, readonly string[]>,
  finish: (text: string, r: Rng) => string = (text) => cap(text),
): Template {
  return { ...base, make: (r) => finish(fill(r, r.pick(patterns), slots), r) };
}
