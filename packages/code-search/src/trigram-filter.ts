// A per-file Bloom filter of case-folded character trigrams: says which files may contain a literal, so a text search reads
// only those. Folding matches the literal matcher's smart case: ASCII letters fold to lower case, and every non-ASCII UTF-16
// unit folds to one wildcard (the matcher folds letters only within ASCII or only outside it, so a case-insensitive match
// keeps each unit's ASCII-ness). The filter may say yes for a file without the literal, never no for one with it.

/** Bits of filter per distinct trigram (two hash functions: about 3% false positives per trigram). */
const BITS_PER_TRIGRAM = 10;
const MIN_FILTER_BYTES = 8;
const NON_ASCII = 0x80;

function fold(unit: number): number {
  if (unit >= NON_ASCII) return NON_ASCII;
  return unit >= 65 && unit <= 90 ? unit + 32 : unit;
}

/** Marks of the trigrams seen in the text being filtered (2^24 bits), cleared after each text. */
let seen: Uint8Array | undefined;
let touched = new Int32Array(1 << 16);

/** The distinct folded trigram keys of `text` (each below 2^24). */
export function trigramKeys(text: string): Int32Array {
  seen ??= new Uint8Array(1 << 21);
  let count = 0;
  if (text.length >= 3) {
    let a = fold(text.charCodeAt(0));
    let b = fold(text.charCodeAt(1));
    for (let index = 2; index < text.length; index++) {
      const c = fold(text.charCodeAt(index));
      const key = (a << 16) | (b << 8) | c;
      const bit = 1 << (key & 7);
      if ((seen[key >>> 3] & bit) === 0) {
        seen[key >>> 3] |= bit;
        if (count === touched.length) {
          const grown = new Int32Array(touched.length * 2);
          grown.set(touched);
          touched = grown;
        }
        touched[count++] = key;
      }
      a = b;
      b = c;
    }
  }
  const keys = touched.slice(0, count);
  for (let index = 0; index < count; index++) seen[keys[index] >>> 3] = 0;
  return keys;
}

function firstHash(key: number): number {
  return Math.imul(key, 0x9e3779b1) >>> 7;
}

function secondHash(key: number): number {
  return Math.imul(key ^ 0x5bd1e995, 0x85ebca77) >>> 5;
}

/** The filter of a text: a power-of-two number of bytes, about 1.25 per distinct trigram. */
export function buildTrigramFilter(text: string): Uint8Array {
  const keys = trigramKeys(text);
  let bytes = MIN_FILTER_BYTES;
  while (bytes * 8 < keys.length * BITS_PER_TRIGRAM) bytes *= 2;
  const filter = new Uint8Array(bytes);
  const mask = bytes * 8 - 1;
  for (const key of keys) {
    const first = firstHash(key) & mask;
    const second = secondHash(key) & mask;
    filter[first >>> 3] |= 1 << (first & 7);
    filter[second >>> 3] |= 1 << (second & 7);
  }
  return filter;
}

/** False only when the text behind `filter` cannot contain a literal whose trigram keys are `keys`. */
export function mayContainTrigrams(filter: Uint8Array, keys: Int32Array): boolean {
  const mask = filter.length * 8 - 1;
  for (const key of keys) {
    const first = firstHash(key) & mask;
    if ((filter[first >>> 3] & (1 << (first & 7))) === 0) return false;
    const second = secondHash(key) & mask;
    if ((filter[second >>> 3] & (1 << (second & 7))) === 0) return false;
  }
  return true;
}
