/**
 * Literal prefixes that every match of a pattern must start with, read from the regex source.
 *
 * Used as a prefilter: a pattern whose anchors do not occur in the text cannot match, so it is
 * not run. The analysis is deliberately conservative: anything it does not understand (a class,
 * an optional first element, a branch that can match empty) makes it return null, which means
 * "always run this pattern". Soundness rests on one fact: a match starts with the first
 * consuming element of one of the top-level branches.
 *
 * Supports the syntax the rules use: groups and lookarounds, alternation, classes, escapes,
 * quantifiers (greedy and lazy), anchors and backreferences.
 */

type Node =
  | { kind: 'literal'; char: string; min: number }
  | { kind: 'group'; alternatives: Node[][]; min: number }
  | { kind: 'assertion' }
  | { kind: 'other'; min: number };

const CLASS_ESCAPES = new Set([
  'd',
  'D',
  's',
  'S',
  'w',
  'W',
  'p',
  'P',
  'u',
  'x',
  'k',
  'c',
  'n',
  'r',
  't',
  'f',
  'v',
  '0',
  '1',
  '2',
  '3',
  '4',
  '5',
  '6',
  '7',
  '8',
  '9',
]);

export function anchorsOf(source: string): string[] | null {
  const parser = new Parser(source);
  const alternatives = parser.alternatives();
  if (parser.position !== source.length) return null;
  return firstOfAlternatives(alternatives);
}

const MAX_ANCHORS = 64;

function firstOfAlternatives(alternatives: Node[][]): string[] | null {
  const anchors: string[] = [];
  for (const sequence of alternatives) {
    const expansion = expand(sequence);
    if (expansion === null || expansion.prefixes.includes('')) return null;
    anchors.push(...expansion.prefixes);
  }
  return anchors;
}

interface Expansion {
  /** Every match of the sequence starts with one of these strings. */
  prefixes: string[];
  /** True when the prefixes are the whole sequence (so a caller may keep appending). */
  complete: boolean;
}

/**
 * Literal prefixes of a sequence, extended through literals and fully literal groups as far as
 * possible (bounded by MAX_ANCHORS), e.g. "(?:in|to) (?:all|every)" gives "in all", "to every"...
 * Null when the first consuming element is not literal or may be skipped.
 */
function expand(sequence: Node[]): Expansion | null {
  let prefixes = [''];
  let consumed = false;
  for (const node of sequence) {
    if (node.kind === 'assertion') continue;
    if (node.min === 0 || node.kind === 'other') return consumed ? { prefixes, complete: false } : null;
    const repeats = (node as { max?: number }).max !== 1;
    if (node.kind === 'literal') {
      prefixes = prefixes.map((prefix) => prefix + node.char);
      consumed = true;
      if (repeats) return { prefixes, complete: false };
      continue;
    }
    const inner = node.alternatives.map(expand);
    if (inner.some((expansion) => expansion === null)) return consumed ? { prefixes, complete: false } : null;
    const options = (inner as Expansion[]).flatMap((expansion) => expansion.prefixes);
    if (prefixes.length * options.length > MAX_ANCHORS) return consumed ? { prefixes, complete: false } : firstOnly(options);
    prefixes = prefixes.flatMap((prefix) => options.map((option) => prefix + option));
    consumed = true;
    if (repeats || (inner as Expansion[]).some((expansion) => !expansion.complete)) return { prefixes, complete: false };
  }
  return consumed ? { prefixes, complete: true } : null;
}

/** Too many combinations at the very start: fall back to the options themselves. */
function firstOnly(options: string[]): Expansion {
  return { prefixes: options, complete: false };
}

class Parser {
  position = 0;

  constructor(private readonly source: string) {}

  alternatives(): Node[][] {
    const alternatives: Node[][] = [this.sequence()];
    while (this.source[this.position] === '|') {
      this.position++;
      alternatives.push(this.sequence());
    }
    return alternatives;
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.position < this.source.length) {
      const ch = this.source[this.position];
      if (ch === '|' || ch === ')') break;
      const atom = this.atom();
      const quantifier = this.quantifier();
      if (quantifier !== null && atom.kind !== 'assertion') {
        atom.min = quantifier.min;
        (atom as { max?: number }).max = quantifier.max;
      } else if (atom.kind !== 'assertion') {
        (atom as { max?: number }).max = 1;
      }
      nodes.push(atom);
    }
    return nodes;
  }

  private atom(): Node {
    const ch = this.source[this.position];
    if (ch === '(') return this.group();
    if (ch === '[') {
      this.skipClass();
      return { kind: 'other', min: 1 };
    }
    if (ch === '^' || ch === '$') {
      this.position++;
      return { kind: 'assertion' };
    }
    if (ch === '.') {
      this.position++;
      return { kind: 'other', min: 1 };
    }
    if (ch === '\\') return this.escape();
    this.position++;
    return { kind: 'literal', char: ch, min: 1 };
  }

  private escape(): Node {
    const next = this.source[this.position + 1];
    this.position += 2;
    if (next === 'b' || next === 'B') return { kind: 'assertion' };
    if (next === 'p' || next === 'P' || (next === 'u' && this.source[this.position] === '{')) {
      const close = this.source.indexOf('}', this.position);
      this.position = close + 1;
      return { kind: 'other', min: 1 };
    }
    if (next === 'u') {
      this.position += 4;
      return { kind: 'other', min: 1 };
    }
    if (next === 'x') {
      this.position += 2;
      return { kind: 'other', min: 1 };
    }
    if (CLASS_ESCAPES.has(next)) return { kind: 'other', min: 1 };
    return { kind: 'literal', char: next, min: 1 };
  }

  private group(): Node {
    this.position++; // (
    let lookaround = false;
    if (this.source[this.position] === '?') {
      const kind = this.source.slice(this.position, this.position + 3);
      if (kind.startsWith('?:')) this.position += 2;
      else if (kind.startsWith('?=') || kind.startsWith('?!')) {
        this.position += 2;
        lookaround = true;
      } else if (kind === '?<=' || kind === '?<!') {
        this.position += 3;
        lookaround = true;
      } else if (kind.startsWith('?<')) {
        this.position = this.source.indexOf('>', this.position) + 1;
      }
    }
    const alternatives = this.alternatives();
    this.position++; // )
    return lookaround ? { kind: 'assertion' } : { kind: 'group', alternatives, min: 1 };
  }

  private skipClass(): void {
    this.position++; // [
    while (this.position < this.source.length && this.source[this.position] !== ']') {
      this.position += this.source[this.position] === '\\' ? 2 : 1;
    }
    this.position++; // ]
  }

  private quantifier(): { min: number; max: number } | null {
    const ch = this.source[this.position];
    let result: { min: number; max: number } | null = null;
    if (ch === '?') result = { min: 0, max: 1 };
    else if (ch === '*') result = { min: 0, max: Infinity };
    else if (ch === '+') result = { min: 1, max: Infinity };
    else if (ch === '{') {
      const close = this.source.indexOf('}', this.position);
      const body = this.source.slice(this.position + 1, close);
      const match = /^(\d+)(?:(,)(\d*))?$/.exec(body);
      if (!match) return null;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      this.position = close;
      result = { min, max };
    }
    if (result === null) return null;
    this.position++;
    if (this.source[this.position] === '?') this.position++; // lazy
    return result;
  }
}
