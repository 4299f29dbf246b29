import { crc32 } from 'node:zlib';

import { fnv1a } from '../feature-hashing';

/**
 * The compact binary the local provider loads: int8 word vectors with one scale per word, the
 * words' frequency ranks, the sentence-level common components, and a prebuilt open-addressing
 * hash table so loading needs no per-word work at all (one read, one checksum, typed views).
 *
 * Layout, little-endian, every section before `vectors` 4-byte aligned:
 *   header (64 bytes, see HEADER)
 *   scales      f32[wordCount]
 *   ranks       u32[wordCount]      0-based rank in the source file (drives SIF weights)
 *   hashes      u32[wordCount]      fnv1a(word), compared before decoding a word
 *   offsets     u32[wordCount + 1]  byte offsets of each word in `words`
 *   table       u32[tableSize]      word index + 1 per slot, 0 = empty; linear probing
 *   components  f32[componentCount * dimensions]
 *   vectors     i8[wordCount * dimensions]
 *   words       UTF-8, concatenated
 */

const MAGIC = 'ATRGLOVE';
/** Bump when the layout or the meaning of a field changes; older files are then rebuilt. */
export const GLOVE_FORMAT_VERSION = 1;

const HEADER_BYTES = 64;
const HEADER = {
  magic: 0,
  version: 8,
  paramsHash: 12,
  dimensions: 16,
  wordCount: 20,
  componentCount: 24,
  tableSize: 28,
  wordBytes: 32,
  bodyCrc: 36,
  sourceWordCount: 40,
} as const;

export interface GloveData {
  /** Checksum of the build parameters: a file built with other parameters is stale. */
  paramsHash: number;
  dimensions: number;
  /** Words in the source file (informational). */
  sourceWordCount: number;
  words: readonly string[];
  ranks: Uint32Array;
  scales: Float32Array;
  vectors: Int8Array;
  componentCount: number;
  components: Float32Array;
}

export interface DecodedGlove extends Omit<GloveData, 'words'> {
  wordCount: number;
  hashes: Uint32Array;
  offsets: Uint32Array;
  table: Uint32Array;
  wordBytes: Buffer;
}

/** The file is missing parts, from another version or build, or damaged: rebuild it. */
export class StaleGloveFileError extends Error {
  constructor(reason: string) {
    super(`local embedding cache is stale or damaged: ${reason}`);
    this.name = 'StaleGloveFileError';
  }
}

function tableSizeFor(wordCount: number): number {
  let size = 1024;
  while (size < wordCount * 2) size *= 2;
  return size;
}

function bodyBytes(wordCount: number, dimensions: number, componentCount: number, tableSize: number, wordBytes: number): number {
  const aligned = 4 * (wordCount * 3 + (wordCount + 1) + tableSize + componentCount * dimensions);
  return aligned + wordCount * dimensions + wordBytes;
}

export function encodeGlove(data: GloveData): Buffer {
  const { dimensions, words, componentCount } = data;
  const wordCount = words.length;
  if (data.vectors.length !== wordCount * dimensions) throw new Error('vectors length does not match words');
  if (data.components.length !== componentCount * dimensions) throw new Error('components length mismatch');

  const encodedWords = words.map((w) => Buffer.from(w, 'utf8'));
  const offsets = new Uint32Array(wordCount + 1);
  for (let i = 0; i < wordCount; i++) offsets[i + 1] = offsets[i] + encodedWords[i].length;
  const hashes = new Uint32Array(wordCount);
  const tableSize = tableSizeFor(wordCount);
  const table = new Uint32Array(tableSize);
  for (let i = 0; i < wordCount; i++) {
    hashes[i] = fnv1a(words[i]);
    let slot = hashes[i] & (tableSize - 1);
    while (table[slot] !== 0) slot = (slot + 1) & (tableSize - 1);
    table[slot] = i + 1;
  }

  const wordBytes = offsets[wordCount];
  const out = Buffer.alloc(HEADER_BYTES + bodyBytes(wordCount, dimensions, componentCount, tableSize, wordBytes));
  let at = HEADER_BYTES;
  const put = (section: ArrayBufferView) => {
    const bytes = Buffer.from(section.buffer, section.byteOffset, section.byteLength);
    bytes.copy(out, at);
    at += bytes.length;
  };
  put(data.scales);
  put(data.ranks);
  put(hashes);
  put(offsets);
  put(table);
  put(data.components);
  put(data.vectors);
  for (const w of encodedWords) {
    w.copy(out, at);
    at += w.length;
  }

  out.write(MAGIC, HEADER.magic, 'latin1');
  out.writeUInt32LE(GLOVE_FORMAT_VERSION, HEADER.version);
  out.writeUInt32LE(data.paramsHash >>> 0, HEADER.paramsHash);
  out.writeUInt32LE(dimensions, HEADER.dimensions);
  out.writeUInt32LE(wordCount, HEADER.wordCount);
  out.writeUInt32LE(componentCount, HEADER.componentCount);
  out.writeUInt32LE(tableSize, HEADER.tableSize);
  out.writeUInt32LE(wordBytes, HEADER.wordBytes);
  out.writeUInt32LE(crc32(out.subarray(HEADER_BYTES)), HEADER.bodyCrc);
  out.writeUInt32LE(data.sourceWordCount, HEADER.sourceWordCount);
  return out;
}

/**
 * Checks the header, size, parameters and checksum, then returns views into `file` (or into
 * an aligned copy if the buffer does not start on a 4-byte boundary).
 */
export function decodeGlove(file: Buffer, expectedParamsHash: number): DecodedGlove {
  if (file.length < HEADER_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC) {
    throw new StaleGloveFileError('not an Atrium GloVe file');
  }
  const version = file.readUInt32LE(HEADER.version);
  if (version !== GLOVE_FORMAT_VERSION) {
    throw new StaleGloveFileError(`format version ${version}, this code reads ${GLOVE_FORMAT_VERSION}`);
  }
  const paramsHash = file.readUInt32LE(HEADER.paramsHash);
  if (paramsHash !== expectedParamsHash >>> 0) throw new StaleGloveFileError('built with other parameters');
  const dimensions = file.readUInt32LE(HEADER.dimensions);
  const wordCount = file.readUInt32LE(HEADER.wordCount);
  const componentCount = file.readUInt32LE(HEADER.componentCount);
  const tableSize = file.readUInt32LE(HEADER.tableSize);
  const wordByteCount = file.readUInt32LE(HEADER.wordBytes);
  if (dimensions === 0 || wordCount === 0 || tableSize < wordCount || (tableSize & (tableSize - 1)) !== 0) {
    throw new StaleGloveFileError('inconsistent header');
  }
  const expected = HEADER_BYTES + bodyBytes(wordCount, dimensions, componentCount, tableSize, wordByteCount);
  if (file.length !== expected) throw new StaleGloveFileError(`size ${file.length}, header says ${expected}`);
  if (crc32(file.subarray(HEADER_BYTES)) !== file.readUInt32LE(HEADER.bodyCrc)) {
    throw new StaleGloveFileError('checksum mismatch');
  }

  let aligned = file;
  if (file.byteOffset % 4 !== 0) {
    // Typed views need 4-byte alignment; Buffer.alloc is never carved from the shared pool.
    aligned = Buffer.alloc(file.length);
    file.copy(aligned);
  }
  const base = aligned.buffer;
  let at = aligned.byteOffset + HEADER_BYTES;
  const u32 = (n: number) => {
    const view = new Uint32Array(base, at, n);
    at += 4 * n;
    return view;
  };
  const f32 = (n: number) => {
    const view = new Float32Array(base, at, n);
    at += 4 * n;
    return view;
  };
  const scales = f32(wordCount);
  const ranks = u32(wordCount);
  const hashes = u32(wordCount);
  const offsets = u32(wordCount + 1);
  const table = u32(tableSize);
  const components = f32(componentCount * dimensions);
  const vectors = new Int8Array(base, at, wordCount * dimensions);
  at += wordCount * dimensions;
  const wordBytes = Buffer.from(base, at, wordByteCount);
  if (offsets[wordCount] !== wordByteCount) throw new StaleGloveFileError('word offsets do not match');

  return {
    paramsHash,
    dimensions,
    sourceWordCount: aligned.readUInt32LE(HEADER.sourceWordCount),
    wordCount,
    ranks,
    scales,
    vectors,
    componentCount,
    components,
    hashes,
    offsets,
    table,
    wordBytes,
  };
}
