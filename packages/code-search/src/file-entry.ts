import { readFileSync } from 'node:fs';
import type { SyntaxParser } from './grammar-loader.js';
import { extractIdentifiers, foldedWordTokens } from './identifier-extractor.js';
import { languageOfPath } from './language-table.js';
import { isBinary, MAX_PARSE_BYTES, RACY_MARGIN_MS } from './file-limits.js';
import type { NameTable } from './name-table.js';
import { SYNTAX_SPECS } from './syntax-spec.js';
import { buildTrigramFilter } from './trigram-filter.js';

/** Files over this size are read by text searches without a trigram filter (always candidates). */
export const MAX_TRIGRAM_BYTES = 32 * 1024 * 1024;

/**
 * parsed: identifiers known; tokens: a code file with words only; large: over 2 MB, words only (none when binary); binary:
 * nothing; other: a file of no code language (trigrams only).
 */
export type EntryKind = 'parsed' | 'tokens' | 'large' | 'binary' | 'other';

/** What the index holds of one file, valid while the file keeps its size and mtime. */
export interface FileEntry {
  size: number;
  mtimeMs: number;
  indexedAtMs: number;
  kind: EntryKind;
  /** Sorted distinct fold ids of the file's word tokens ('parsed', 'tokens' and 'large' text). */
  folds?: Uint32Array;
  /** 'parsed': pairs of [UTF-16 start, name id * 2 + 1 when a definition]. */
  occurrences?: Int32Array;
  /** True when the file had several hard links when indexed. */
  linked?: boolean;
  /** Trigram filter of the text (any kind but binary, up to MAX_TRIGRAM_BYTES); none: a text search must read the file. */
  grams?: Uint8Array;
}

const decoder = new TextDecoder();

/** True when the file's mtime is old enough at the read that an unchanged size and mtime vouch for the entry (racy-git rule). */
export function isTrusted(entry: FileEntry): boolean {
  return entry.mtimeMs < entry.indexedAtMs - RACY_MARGIN_MS;
}

/**
 * Reads the file at `absolute` into `entry` (kind 'other' on the way in): its trigrams, the folds of its words, and for a
 * language with a grammar its identifier nodes. A file that cannot be read keeps the entry as it came.
 */
export async function readFileEntry(
  entry: FileEntry,
  path: string,
  absolute: string,
  names: NameTable,
  parser: SyntaxParser,
): Promise<void> {
  const language = languageOfPath(path);
  const large = entry.size > MAX_PARSE_BYTES;
  // Every file a text search could read is read here: its trigrams answer text lookups.
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(absolute);
  } catch {
    return;
  }
  const binary = isBinary(bytes);
  if (binary) {
    // Over 2 MB it stays 'large' without words: a definition or usage search never mentions it, a text search skips it.
    entry.kind = large || bytes.length > MAX_PARSE_BYTES ? 'large' : 'binary';
    return;
  }
  const text = decoder.decode(bytes);
  if (bytes.length <= MAX_TRIGRAM_BYTES) entry.grams = buildTrigramFilter(text);
  if (large || bytes.length > MAX_PARSE_BYTES) {
    // Searched as text only; its words say whether a definition or usage search should mention it.
    entry.kind = 'large';
    entry.folds = wordFolds(text, names);
    return;
  }
  if (!language?.grammar && !language?.codeWithoutGrammar) return;
  entry.folds = wordFolds(text, names);
  entry.kind = 'tokens';
  const grammar = language?.grammar;
  if (!grammar) return;
  const tree = await parser.parse(grammar, text);
  if (!tree) return;
  try {
    const found = extractIdentifiers(SYNTAX_SPECS[grammar], tree, text);
    const occurrences = new Int32Array(found.length * 2);
    for (let i = 0; i < found.length; i++) {
      occurrences[i * 2] = found[i].start;
      occurrences[i * 2 + 1] = names.nameId(found[i].name) * 2 + (found[i].definition ? 1 : 0);
    }
    entry.occurrences = occurrences;
    entry.kind = 'parsed';
  } finally {
    tree.delete();
  }
}

/** The sorted distinct fold ids of the text's word tokens. */
function wordFolds(text: string, names: NameTable): Uint32Array {
  return Uint32Array.from([...foldedWordTokens(text)].map((folded) => names.foldId(folded))).sort();
}
