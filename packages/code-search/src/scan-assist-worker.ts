import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyOccurrences } from './classify-occurrences.js';
import type { ResultType } from './code-search-schema.js';
import { MAX_PARSE_BYTES } from './file-limits.js';
import type { SyntaxParser } from './grammar-loader.js';
import { languageOfPath } from './language-table.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { CLAIMED_BY_WORKER, claimSlot, readOverflowed, type AssistedFile } from './scan-assist.js';
import { readFileFacts, unreadFacts, type ClassifyFile } from './scan-file.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

/** What a scan asks the index worker to share. */
export interface AssistRequest {
  query: string;
  /** Workspace-relative paths in the scan's order. */
  paths: readonly string[];
  resultTypes: readonly ResultType[];
  maxResults: number;
  /** A file over 2 MB counts for the hint unread: every path is known to hold the query (ripgrep named it), and text is not wanted. */
  sizeFirst: boolean;
  /** Claim slots of `paths`, then the stop flag (see createClaimSlots). */
  slots: Int32Array;
}

/**
 * Works through a scan's files in path order, claiming each file no one has claimed before it is read, until none is left or
 * the scan says stop; reads each file's facts (parsing, without a cache, whenever the scan could need it) and hands them to
 * `answer` one file at a time, so the scan can use them as soon as its turn comes.
 */
export async function assistScan(
  root: string,
  parser: SyntaxParser,
  request: AssistRequest,
  answer: (file: AssistedFile) => void,
): Promise<void> {
  const { paths, slots, maxResults } = request;
  const matcher = createLiteralMatcher(request.query);
  const resultTypes = new Set(request.resultTypes);
  const classify: ClassifyFile = async (_path, grammar, text, starts) => {
    const tree = await parser.parse(grammar, text);
    if (!tree) return {};
    try {
      return { kinds: classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, matcher.query.length), classifiedBy: 'parse' };
    } finally {
      tree.delete();
    }
  };
  const context = { matcher, resultTypes, maxResults, classify };
  // The grammars load before the first claim: the scan may wait for a file the worker claimed, never for a grammar load.
  const grammars = new Set(paths.map((path) => languageOfPath(path)?.grammar).filter((grammar) => grammar !== undefined));
  for (const grammar of grammars) {
    if (Atomics.load(slots, paths.length) !== 0) return;
    // A grammar that fails here fails on the file too: the file then gets no answer and the scan reads it itself.
    await parser.parse(grammar, '').then(
      (tree) => tree?.delete(),
      () => undefined,
    );
  }
  for (let index = 0; index < paths.length; index++) {
    if (Atomics.load(slots, paths.length) !== 0) break;
    if (!claimSlot(slots, index, CLAIMED_BY_WORKER)) continue;
    const absolute = join(root, paths[index]);
    let facts = unreadFacts();
    try {
      const stat = lstatSync(absolute);
      if (!stat.isFile()) {
        // Not a regular file (any more): nothing to read, as a failed read in the scan.
      } else if (request.sizeFirst && stat.size > MAX_PARSE_BYTES) facts = { ...facts, largeOnly: true, oversize: true };
      else
        facts = await readFileFacts(paths[index], readFileSync(absolute), { ...context, overflowed: readOverflowed(slots, paths.length) });
    } catch {
      // Gone, unreadable, or the parse failed: the scan reads it itself, told at once.
      answer({ index });
      continue;
    }
    answer({ index, facts });
  }
}
