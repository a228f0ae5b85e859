// The symbol index itself, as held by its worker thread: one entry per file of a disk workspace, validated by size and
// mtime, with every identifier node and the word tokens of code files. Node-only (sync file access keeps sweeps cheap).
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { Workspace, WorkspaceDirEntry, WorkspaceStat } from '@toolhost/core';
import type { SyntaxParser } from './grammar-loader.js';
import { extractIdentifiers, foldCase, foldedWordTokens } from './identifier-extractor.js';
import { extensionOf, languageOfPath } from './language-table.js';
import { isBinary, MAX_PARSE_BYTES, RACY_MARGIN_MS } from './file-limits.js';
import { SYNTAX_SPECS } from './syntax-spec.js';
import { buildTrigramFilter, mayContainTrigrams, trigramKeys } from './trigram-filter.js';
import { pathHolds } from './literal-matcher.js';
import { listFolder, walkWorkspace } from './workspace-walker.js';
import { buildOrder } from './build-order.js';
import type { ChangeJournal, JournalChanges } from './change-journal.js';
import type { IndexCacheLimits } from './index-cache-limits.js';
import { pruneIndexCache } from './index-cache-pruning.js';

/** Bumped whenever the stored layout or the classification changes, so older cache files are ignored. */
export const INDEX_FORMAT = 3;
/** Files over this size are read by text searches without a trigram filter (always candidates). */
export const MAX_TRIGRAM_BYTES = 32 * 1024 * 1024;
/** A search re-reads at most this many changed files itself; past that it scans while the index catches up in the background. */
export const INLINE_REINDEX_LIMIT = 64;

/**
 * parsed: identifiers known; tokens: a code file with words only; large: over 2 MB, words only (none when binary); binary:
 * nothing; other: a file of no code language (trigrams only).
 */
type EntryKind = 'parsed' | 'tokens' | 'large' | 'binary' | 'other';

interface FileEntry {
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

/** Counters of the index. */
export interface IndexStats {
  /** Files listed (after .gitignore). */
  files: number;
  /** Files whose identifier nodes are stored. */
  parsed: number;
  /** Identifier nodes stored. */
  occurrences: number;
  /** Distinct identifier spellings seen. */
  names: number;
  /** True once lookups answer. */
  ready: boolean;
  /** True when the index was loaded from the cache folder (then only changed files were read again). */
  fromCache: boolean;
  /**
   * True while changes are heard from the file system (Linux inotify on a local file system), so a lookup checks only what
   * changed; false: each lookup stats every indexed file and folder under the searched folder.
   */
  watching: boolean;
  /** Time to build (or load and check) the index. */
  buildMs: number;
  /** The worker thread's JavaScript heap in use (the index lives there). */
  heapUsedBytes: number;
  /** Bytes of the per-file arrays outside that heap: word ids, identifier nodes and trigram filters. */
  arrayBytes: number;
}

interface StoredIndex {
  format: number;
  root: string;
  names: string[];
  folds: string[];
  dirs: Array<[string, number]>;
  files: Array<[string, FileEntry]>;
}

const decoder = new TextDecoder();

function under(start: string, path: string): boolean {
  return start === '' || path === start || path.startsWith(`${start}/`);
}

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

function statOf(absolute: string): (WorkspaceStat & { links: number }) | undefined {
  const stat = lstatSync(absolute, { throwIfNoEntry: false });
  if (!stat) return undefined;
  const kind = stat.isFile() ? 'file' : stat.isDirectory() ? 'directory' : stat.isSymbolicLink() ? 'symlink' : 'other';
  return { kind, size: stat.size, mtimeMs: stat.mtimeMs, mode: stat.mode & 0o7777, links: stat.nlink };
}

/** A read-only Workspace over synchronous file calls: the worker is alone on its thread, so blocking is cheaper than awaiting. */
function syncDiskWorkspace(root: string): Workspace {
  const absolute = (path: string) => (path ? join(root, path) : root);
  const fail = () => Promise.reject(new Error('read-only workspace'));
  return {
    root,
    onDisk: true,
    lstat: async (path) => statOf(absolute(path)),
    stat: async (path) => statOf(absolute(path)),
    realpath: async () => undefined,
    readFile: async (path) => readFileSync(absolute(path)),
    writeFile: fail,
    remove: fail,
    readdir: async (path) =>
      readdirSync(absolute(path), { withFileTypes: true }).map(
        (entry): WorkspaceDirEntry => ({
          name: entry.name,
          kind: entry.isFile() ? 'file' : entry.isDirectory() ? 'directory' : entry.isSymbolicLink() ? 'symlink' : 'other',
        }),
      ),
  };
}

/** Options of {@link createIndexStore}. */
export interface IndexStoreOptions {
  root: string;
  parser: SyntaxParser;
  /** Where the index is persisted between processes; none: kept in memory only. */
  cacheFile?: string;
  /** Bounds of the folder holding `cacheFile`, applied at each save (see pruneIndexCache). */
  cacheLimits?: IndexCacheLimits;
  /** Called between files while building, so messages are handled. */
  yieldNow?: () => Promise<void>;
  /** Tells what changed instead of a stat of every file at each lookup; none: every lookup checks all files under its folder. */
  journal?: ChangeJournal;
}

/** The index of one disk workspace. */
export interface IndexStore {
  /** Loads the cache file or walks and indexes the whole workspace; resolves once lookups can answer. */
  build(): Promise<void>;
  /** `only`: parsed files count only when an occurrence is of that kind (a search for definitions, or usages, alone). */
  lookup(request: {
    query: string;
    caseSensitive: boolean;
    start: string;
    extensions?: readonly string[];
    only?: 'definition' | 'usage';
    paths?: boolean;
  }): Promise<LookupAnswer>;
  /**
   * Files under `start` that may contain `query` as text (trigram filters; files without one are always named), with the
   * identifier nodes spelled like it for trusted parsed files when `identifiers`; `ready:false` for a query under three
   * characters.
   */
  textLookup(request: {
    query: string;
    caseSensitive: boolean;
    start: string;
    extensions?: readonly string[];
    identifiers: boolean;
    paths?: boolean;
  }): Promise<LookupAnswer>;
  /** Stored identifier nodes spelled like the query in `paths`, for entries old enough to be trusted by mtime + size. */
  occurrences(request: { query: string; caseSensitive: boolean; paths: readonly string[] }): IndexedFile[];
  stats(): IndexStats;
  /** Writes the cache file when something changed since the last save. */
  save(): void;
}

/** Creates the index of one disk workspace (used inside the index worker). */
export function createIndexStore(options: IndexStoreOptions): IndexStore {
  const { root, parser } = options;
  const workspace = syncDiskWorkspace(root);
  const absolute = (path: string) => (path ? join(root, path) : root);
  const files = new Map<string, FileEntry>();
  const dirs = new Map<string, number>();
  const names: string[] = [];
  const nameIds = new Map<string, number>();
  const nameFold: number[] = [];
  const folds: string[] = [];
  const foldIds = new Map<string, number>();
  let ready = false;
  let dirty = false;
  let buildMs = 0;
  let fromCache = false;
  let catchingUp = false;
  let queue: Promise<unknown> = Promise.resolve();

  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  const foldId = (folded: string) => {
    let id = foldIds.get(folded);
    if (id === undefined) {
      id = folds.length;
      folds.push(folded);
      foldIds.set(folded, id);
    }
    return id;
  };
  const nameId = (name: string) => {
    let id = nameIds.get(name);
    if (id === undefined) {
      id = names.length;
      names.push(name);
      nameIds.set(name, id);
      nameFold.push(foldId(foldCase(name)));
    }
    return id;
  };

  const indexFile = async (path: string): Promise<void> => {
    const indexedAtMs = Date.now();
    const stat = statOf(absolute(path));
    if (!stat || stat.kind !== 'file') {
      forgetFile(path);
      return;
    }
    dirty = true;
    const entry: FileEntry = { size: stat.size, mtimeMs: stat.mtimeMs, indexedAtMs, kind: 'other' };
    files.set(path, entry);
    if (trusted(entry)) recent.delete(path);
    else recent.add(path);
    // A file with another name elsewhere can be written through that name, which raises no event in its folder here.
    if (stat.links > 1) {
      entry.linked = true;
      linked.add(path);
    } else linked.delete(path);
    const language = languageOfPath(path);
    const large = stat.size > MAX_PARSE_BYTES;
    // Every file a text search could read is read here: its trigrams answer text lookups.
    let bytes: Uint8Array;
    try {
      bytes = readFileSync(absolute(path));
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
      entry.folds = Uint32Array.from([...foldedWordTokens(text)].map(foldId)).sort();
      return;
    }
    if (!language?.grammar && !language?.codeWithoutGrammar) return;
    entry.folds = Uint32Array.from([...foldedWordTokens(text)].map(foldId)).sort();
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
        occurrences[i * 2 + 1] = nameId(found[i].name) * 2 + (found[i].definition ? 1 : 0);
      }
      entry.occurrences = occurrences;
      entry.kind = 'parsed';
    } finally {
      tree.delete();
    }
  };

  const trusted = (entry: FileEntry) => entry.mtimeMs < entry.indexedAtMs - RACY_MARGIN_MS;
  const { journal } = options;
  /** Entries too recent to trust (checked again at each lookup until they can be). */
  const recent = new Set<string>();
  /** Files with several hard links: stat-ed at each lookup, since a write through another link is not heard. */
  const linked = new Set<string>();
  const forgetFile = (path: string) => {
    recent.delete(path);
    linked.delete(path);
    if (files.delete(path)) dirty = true;
  };

  const forgetUnder = (dir: string) => {
    for (const path of [...files.keys()]) if (under(dir, path)) forgetFile(path);
    for (const path of [...dirs.keys()]) if (under(dir, path)) dirs.delete(path);
    journal?.unwatchUnder(dir);
    dirty = true;
  };

  const walkInto = async (start: string, found: string[] = []) => {
    // Each folder is watched before it is listed, so nothing created after the listing goes unheard.
    const listed = await walkWorkspace(workspace, start, undefined, (dir) => {
      journal?.watch(dir);
      found.push(dir);
    });
    for (const dir of found) {
      const stat = statOf(absolute(dir));
      if (stat?.kind === 'directory') dirs.set(dir, stat.mtimeMs);
    }
    return listed;
  };

  /** Collects what one lookup must read again, and the folders whose .gitignore rules must be applied again. */
  interface Check {
    pending: Set<string>;
    rewalk: string[];
  }

  /** Lists a known folder again: gone files and folders are dropped, new ones queued; a .gitignore added or removed rewalks it. */
  const relist = async (dir: string, check: Check) => {
    const listing = await listFolder(workspace, dir).catch(() => ({ files: [] as string[], folders: [] as string[] }));
    if (listing.files.some((path) => path.endsWith('/.gitignore') || path === '.gitignore') !== files.has(dir ? `${dir}/.gitignore` : '.gitignore')) {
      check.rewalk.push(dir);
      return;
    }
    const prefix = dir ? `${dir}/` : '';
    const keepFiles = new Set(listing.files);
    const keepFolders = new Set(listing.folders);
    for (const path of [...files.keys()]) if (path.slice(0, path.lastIndexOf('/') + 1) === prefix && !keepFiles.has(path)) forgetFile(path);
    for (const folder of [...dirs.keys()]) {
      if (folder !== dir && folder.slice(0, folder.lastIndexOf('/') + 1) === prefix && !keepFolders.has(folder)) forgetUnder(folder);
    }
    for (const path of listing.files) if (!files.has(path)) check.pending.add(path);
    for (const folder of listing.folders) {
      if (dirs.has(folder)) continue;
      for (const path of await walkInto(folder)) check.pending.add(path);
    }
  };

  /** Stats a known folder: gone, it is forgotten; its mtime moved or is recent (or `always`), it is listed again. */
  const checkFolder = async (dir: string, check: Check, always: boolean) => {
    const stat = statOf(absolute(dir));
    if (stat?.kind !== 'directory') {
      forgetUnder(dir);
      return;
    }
    // A folder changed within the racy margin may have changed again within the same mtime tick: listed again.
    if (stat.mtimeMs === dirs.get(dir) && !always && stat.mtimeMs < Date.now() - RACY_MARGIN_MS) return;
    dirs.set(dir, stat.mtimeMs);
    dirty = true;
    await relist(dir, check);
  };

  /**
   * Stats a known file: gone, it is forgotten; otherwise it is read again when the journal heard it change (`heard`), when
   * its size or mtime moved, or when reading it now would make a recent entry trusted.
   */
  const checkFile = (path: string, entry: FileEntry, check: Check, reason: 'sweep' | 'heard' | 'recent') => {
    const stat = statOf(absolute(path));
    if (stat?.kind !== 'file') {
      forgetFile(path);
      return;
    }
    if (reason !== 'heard' && stat.size === entry.size && stat.mtimeMs === entry.mtimeMs) {
      if (trusted(entry)) return;
      // Heard changes vouch for a recent entry whose file kept its stat: it is read again only once that makes it trusted.
      if (reason === 'recent' && stat.mtimeMs >= Date.now() - RACY_MARGIN_MS) return;
    }
    if (path === '.gitignore' || path.endsWith('/.gitignore')) check.rewalk.push(path.slice(0, Math.max(0, path.lastIndexOf('/'))));
    check.pending.add(path);
  };

  /** Walks again the folders whose ignore rules changed, dropping what they now ignore and queuing what they now show. */
  const applyRewalks = async (check: Check) => {
    // Parents first: a folder a parent's new rules now ignore is forgotten before its own turn.
    for (const dir of [...new Set(check.rewalk)].sort()) {
      if (!dirs.has(dir)) continue;
      const folders: string[] = [];
      const listed = new Set(await walkInto(dir, folders));
      const kept = new Set(folders);
      for (const folder of [...dirs.keys()]) if (folder !== dir && under(dir, folder) && dirs.has(folder) && !kept.has(folder)) forgetUnder(folder);
      for (const path of [...files.keys()]) {
        if (under(dir, path) && !listed.has(path)) {
          forgetFile(path);
          check.pending.delete(path);
        }
      }
      for (const path of listed) if (!files.has(path)) check.pending.add(path);
      dirty = true;
    }
    return check.pending;
  };

  /**
   * Checks every entry under `start` against the disk: folders whose mtime moved are listed again (gone files and folders are
   * dropped at once), files are stat-ed. Returns the files to read again (changed, new, or too recent to trust).
   */
  const sweep = async (start: string): Promise<Set<string>> => {
    const check: Check = { pending: new Set(), rewalk: [] };
    for (const dir of [...dirs.keys()]) {
      if (under(start, dir) && dirs.has(dir)) await checkFolder(dir, check, false);
    }
    for (const [path, entry] of [...files]) if (under(start, path) && files.has(path)) checkFile(path, entry, check, 'sweep');
    return applyRewalks(check);
  };

  /** Applies what the journal heard: folders with names added or removed are listed again, named paths stat-ed. */
  const applyChanges = async (changes: JournalChanges): Promise<Set<string>> => {
    const check: Check = { pending: new Set(), rewalk: [] };
    // A folder whose name was added, removed or renamed may be another folder now (removed and made again, or one moved
    // in its place), unwatched: it is forgotten, and walked again (and watched) when its parent is listed again.
    for (const path of changes.renamed) if (path !== '' && dirs.has(path)) forgetUnder(path);
    // Parents first, so a folder gone with its parent is not listed.
    for (const dir of [...changes.folders].sort()) if (dirs.has(dir)) await checkFolder(dir, check, true);
    for (const path of changes.paths) {
      const entry = files.get(path);
      if (entry) checkFile(path, entry, check, 'heard');
      else if (dirs.has(path) && statOf(absolute(path))?.kind !== 'directory') forgetUnder(path);
    }
    for (const path of recent) {
      const entry = files.get(path);
      if (entry && !check.pending.has(path)) checkFile(path, entry, check, 'recent');
    }
    // The journal cannot vouch for a file written through another link: checked as a sweep checks it.
    for (const path of linked) {
      const entry = files.get(path);
      if (entry && !check.pending.has(path)) checkFile(path, entry, check, 'sweep');
    }
    return applyRewalks(check);
  };

  /** What a lookup under `start` must read again: from the journal when it vouches, else by checking every entry. */
  const refresh = async (start: string): Promise<Set<string>> => {
    const changes = journal?.healthy ? await journal.sync() : undefined;
    if (changes) return applyChanges(changes);
    // The journal could not vouch for this sync (a lost event is possible anywhere): everything is checked once.
    return sweep(journal?.healthy ? '' : start);
  };

  const indexAll = async (paths: Iterable<string>, yieldEvery: number) => {
    let count = 0;
    for (const path of paths) {
      await indexFile(path);
      if (++count % yieldEvery === 0) await options.yieldNow?.();
    }
  };

  const load = (): boolean => {
    if (!options.cacheFile) return false;
    let stored: StoredIndex;
    try {
      stored = deserialize(readFileSync(options.cacheFile)) as StoredIndex;
    } catch {
      return false;
    }
    if (stored?.format !== INDEX_FORMAT || stored.root !== root) return false;
    // The file's mtime is when it was last used: the cache folder's age limit must not take an index read every day.
    try {
      const now = new Date();
      utimesSync(options.cacheFile, now, now);
    } catch {
      // A read-only cache folder still serves the index.
    }
    for (const folded of stored.folds) foldId(folded);
    for (const name of stored.names) nameId(name);
    for (const [dir, mtimeMs] of stored.dirs) dirs.set(dir, mtimeMs);
    for (const [path, entry] of stored.files) {
      files.set(path, entry);
      if (!trusted(entry)) recent.add(path);
      if (entry.linked) linked.add(path);
    }
    return true;
  };

  /** Brings the entries under `start` up to date, then answers with `collect()` (and the matching paths when asked). */
  const answer = (
    start: string,
    pathQuery: { query: string; caseSensitive: boolean; extensions?: readonly string[] } | undefined,
    collect: () => IndexedFile[],
  ): Promise<LookupAnswer> => {
    // While the index catches up with many changes, searches scan instead of waiting for it.
    if (!ready || catchingUp) return Promise.resolve({ ready: false });
    return exclusive(async (): Promise<LookupAnswer> => {
      if (!ready || catchingUp) return { ready: false };
      const pending = await refresh(start);
      // Checked once the index is up to date: a folder that just became ignored is no longer indexed (the scan searches it).
      if (start !== '' && !dirs.has(start) && !files.has(start)) {
        if (pending.size > 0) void exclusive(() => indexAll(pending, 1));
        return { ready: false };
      }
      if (pending.size > INLINE_REINDEX_LIMIT) {
        catchingUp = true;
        void exclusive(() => indexAll(pending, 1)).finally(() => (catchingUp = false));
        return { ready: false };
      }
      await indexAll(pending, Number.POSITIVE_INFINITY);
      const found: LookupAnswer = { ready: true, files: collect() };
      if (pathQuery) {
        const allowed = pathQuery.extensions ? new Set(pathQuery.extensions) : undefined;
        const has = pathHolds(pathQuery.query, pathQuery.caseSensitive);
        found.paths = [];
        for (const path of files.keys()) if (under(start, path) && (!allowed || allowed.has(extensionOf(path))) && has(path)) found.paths.push(path);
      }
      return found;
    });
  };

  return {
    build() {
      return exclusive(async () => {
        const started = performance.now();
        // Messages first: a scan that asked before the build began holds it back before the walk, not after.
        await options.yieldNow?.();
        if (load()) {
          fromCache = true;
          // Watched before they are checked, so a change during the check is heard.
          for (const dir of [...dirs.keys()].sort()) journal?.watch(dir);
          await indexAll(buildOrder([...(await sweep(''))]), 1);
        } else {
          await indexAll(buildOrder(await walkInto('')), 1);
        }
        ready = true;
        buildMs = performance.now() - started;
      });
    },
    lookup({ query, caseSensitive, start, extensions, only, paths }) {
      return answer(start, paths ? { query, caseSensitive, extensions } : undefined, () => {
        const allowed = extensions ? new Set(extensions) : undefined;
        const fid = foldIds.get(foldCase(query));
        const out: IndexedFile[] = [];
        for (const [path, entry] of files) {
          if (!under(start, path) || (allowed && !allowed.has(extensionOf(path)))) continue;
          if (fid === undefined || !entry.folds || !hasId(entry.folds, fid)) continue;
          if (entry.kind !== 'parsed') {
            out.push({ path, size: entry.size, mtimeMs: entry.mtimeMs });
            continue;
          }
          const occurrences = matching(entry, query, caseSensitive, fid);
          // An entry too recent to trust may hide an edit of the same size within the same mtime: it is always read.
          const wanted =
            only === undefined || !trusted(entry) ? occurrences.length > 0 : occurrences.some((occurrence) => occurrence.definition === (only === 'definition'));
          if (wanted) out.push({ path, size: entry.size, mtimeMs: entry.mtimeMs, occurrences });
        }
        return out;
      });
    },
    textLookup({ query, caseSensitive, start, extensions, identifiers, paths }) {
      const keys = trigramKeys(query);
      // A literal of fewer than three characters has no trigram to look for.
      if (keys.length === 0) return Promise.resolve({ ready: false });
      return answer(start, paths ? { query, caseSensitive, extensions } : undefined, () => {
        const allowed = extensions ? new Set(extensions) : undefined;
        const fid = identifiers ? foldIds.get(foldCase(query)) : undefined;
        const out: IndexedFile[] = [];
        for (const [path, entry] of files) {
          if (!under(start, path) || (allowed && !allowed.has(extensionOf(path)))) continue;
          // Binary files are never searched as text (a large one is 'large' without words).
          if (entry.kind === 'binary' || (entry.kind === 'large' && !entry.folds)) continue;
          if (entry.grams && !mayContainTrigrams(entry.grams, keys)) continue;
          const file: IndexedFile = { path, size: entry.size, mtimeMs: entry.mtimeMs };
          if (identifiers && entry.kind === 'parsed' && trusted(entry)) file.occurrences = fid === undefined ? [] : matching(entry, query, caseSensitive, fid);
          out.push(file);
        }
        return out;
      });
    },
    occurrences({ query, caseSensitive, paths }) {
      const fid = foldIds.get(foldCase(query));
      const out: IndexedFile[] = [];
      for (const path of paths) {
        const entry = files.get(path);
        if (!entry || entry.kind !== 'parsed' || !trusted(entry)) continue;
        out.push({ path, size: entry.size, mtimeMs: entry.mtimeMs, occurrences: fid === undefined ? [] : matching(entry, query, caseSensitive, fid) });
      }
      return out;
    },
    stats() {
      let parsed = 0;
      let occurrences = 0;
      let arrayBytes = 0;
      for (const entry of files.values()) {
        if (entry.kind === 'parsed') parsed++;
        occurrences += (entry.occurrences?.length ?? 0) / 2;
        arrayBytes += (entry.folds?.byteLength ?? 0) + (entry.occurrences?.byteLength ?? 0) + (entry.grams?.byteLength ?? 0);
      }
      return {
        files: files.size,
        parsed,
        occurrences,
        names: names.length,
        ready,
        fromCache,
        watching: journal?.healthy ?? false,
        buildMs,
        heapUsedBytes: process.memoryUsage().heapUsed,
        arrayBytes,
      };
    },
    save() {
      if (!options.cacheFile || !dirty || !ready) return;
      const stored: StoredIndex = { format: INDEX_FORMAT, root, names, folds, dirs: [...dirs], files: [...files] };
      // Unique per writer: two hosts of one process may index the same folder.
      const temporary = `${options.cacheFile}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      try {
        mkdirSync(dirname(options.cacheFile), { recursive: true });
        writeFileSync(temporary, serialize(stored));
        renameSync(temporary, options.cacheFile);
        dirty = false;
        pruneIndexCache(dirname(options.cacheFile), basename(options.cacheFile), options.cacheLimits);
      } catch {
        rmSync(temporary, { force: true });
      }
    },
  };

  function matching(entry: FileEntry, query: string, caseSensitive: boolean, fid: number) {
    const found: Array<{ start: number; definition: boolean }> = [];
    const occurrences = entry.occurrences!;
    for (let i = 0; i < occurrences.length; i += 2) {
      const id = occurrences[i + 1] >> 1;
      if (caseSensitive ? names[id] === query : nameFold[id] === fid) found.push({ start: occurrences[i], definition: (occurrences[i + 1] & 1) === 1 });
    }
    return found;
  }
}
