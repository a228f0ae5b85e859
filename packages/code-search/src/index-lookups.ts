import { isTrusted, type FileEntry } from './file-entry.js';
import type { IndexEntries } from './index-entries.js';
import type { IndexLookupRequest, SymbolLookupRequest, TextLookupRequest } from './index-lookup-request.js';
import { extensionOf } from './language-table.js';
import { pathHolds } from './literal-matcher.js';
import type { NameTable } from './name-table.js';
import { isUnder } from './path-under.js';
import { mayContainTrigrams } from './trigram-filter.js';

/** A candidate file of an indexed lookup; `occurrences` (identifier nodes spelled like the query) only for parsed files. */
export interface IndexedFile {
  /** Workspace-relative path. */
  path: string;
  /** Size when indexed; the entry holds only while the file keeps it. */
  size: number;
  /** mtime when indexed; the entry holds only while the file keeps it. */
  mtimeMs: number;
  /** UTF-16 starts of the identifier nodes spelled like the query, and whether each names a declaration. */
  occurrences?: Array<{ start: number; definition: boolean }>;
}

/**
 * What a lookup answers: the files that can hold a result or hint for the query, and when asked the files whose path holds
 * it; or `ready:false`.
 */
export type LookupAnswer = { ready: true; files: IndexedFile[]; paths?: string[] } | { ready: false };

/** True when `id` is in the sorted array (a file's word folds). */
function hasId(sorted: Uint32Array, id: number): boolean {
  let low = 0;
  let high = sorted.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = sorted[middle];
    if (value === id) return true;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** True when `path` is under the request's `start` and has one of its extensions (when it names some). */
function inScope(path: string, start: string, extensions: ReadonlySet<string> | undefined): boolean {
  return isUnder(start, path) && (!extensions || extensions.has(extensionOf(path)));
}

/** The stored identifier nodes of a parsed entry spelled like the query (`fold`: the query's fold id). */
function matching(names: NameTable, entry: FileEntry, query: string, caseSensitive: boolean, fold: number) {
  return names.spelledLike(entry.occurrences!, query, caseSensitive, fold);
}

/** The files in scope that can hold a definition or usage of the query: those whose words hold it, parsed ones by their identifier nodes. */
export function symbolCandidates(entries: IndexEntries, names: NameTable, request: SymbolLookupRequest): IndexedFile[] {
  const { query, caseSensitive, start, extensions, only } = request;
  const fid = names.foldOf(query);
  const out: IndexedFile[] = [];
  for (const [path, entry] of entries.files) {
    if (!inScope(path, start, extensions)) continue;
    if (fid === undefined || !entry.folds || !hasId(entry.folds, fid)) continue;
    if (entry.kind !== 'parsed') {
      out.push({ path, size: entry.size, mtimeMs: entry.mtimeMs });
      continue;
    }
    const occurrences = matching(names, entry, query, caseSensitive, fid);
    // An entry too recent to trust may hide an edit of the same size within the same mtime: it is always read.
    const wanted =
      only === undefined || !isTrusted(entry)
        ? occurrences.length > 0
        : occurrences.some((occurrence) => occurrence.definition === (only === 'definition'));
    if (wanted) out.push({ path, size: entry.size, mtimeMs: entry.mtimeMs, occurrences });
  }
  return out;
}

/**
 * The files in scope whose trigram filter may hold the query (`keys`, its trigrams), with the identifier nodes spelled like
 * it for trusted parsed files when the request asks for `identifiers`.
 */
export function textCandidates(entries: IndexEntries, names: NameTable, request: TextLookupRequest, keys: Int32Array): IndexedFile[] {
  const { query, caseSensitive, start, extensions, identifiers } = request;
  const fid = identifiers ? names.foldOf(query) : undefined;
  const out: IndexedFile[] = [];
  for (const [path, entry] of entries.files) {
    if (!inScope(path, start, extensions)) continue;
    // Binary files are never searched as text (a large one is 'large' without words).
    if (entry.kind === 'binary' || (entry.kind === 'large' && !entry.folds)) continue;
    if (entry.grams && !mayContainTrigrams(entry.grams, keys)) continue;
    const file: IndexedFile = { path, size: entry.size, mtimeMs: entry.mtimeMs };
    if (identifiers && entry.kind === 'parsed' && isTrusted(entry))
      file.occurrences = fid === undefined ? [] : matching(names, entry, query, caseSensitive, fid);
    out.push(file);
  }
  return out;
}

/** Stored identifier nodes spelled like the query in `paths`, for parsed entries old enough to be trusted. */
export function storedOccurrences(
  entries: IndexEntries,
  names: NameTable,
  request: { query: string; caseSensitive: boolean; paths: readonly string[] },
): IndexedFile[] {
  const { query, caseSensitive, paths } = request;
  const fid = names.foldOf(query);
  const out: IndexedFile[] = [];
  for (const path of paths) {
    const entry = entries.files.get(path);
    if (!entry || entry.kind !== 'parsed' || !isTrusted(entry)) continue;
    out.push({
      path,
      size: entry.size,
      mtimeMs: entry.mtimeMs,
      occurrences: fid === undefined ? [] : matching(names, entry, query, caseSensitive, fid),
    });
  }
  return out;
}

/** The indexed files in scope whose path holds the query. */
export function pathsHolding(
  entries: IndexEntries,
  start: string,
  request: Pick<IndexLookupRequest, 'query' | 'caseSensitive' | 'extensions'>,
): string[] {
  const has = pathHolds(request.query, request.caseSensitive);
  const found: string[] = [];
  for (const path of entries.files.keys()) if (inScope(path, start, request.extensions) && has(path)) found.push(path);
  return found;
}
