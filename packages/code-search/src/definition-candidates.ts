import type { Workspace } from '@toolhost/core';
import { occurrencesNeedParse } from './classify-occurrences.js';
import type { CandidatePrefilter } from './candidate-prefilter.js';
import { MAX_PARSE_BYTES } from './file-limits.js';
import { languageOfPath } from './language-table.js';
import type { LiteralMatcher } from './literal-matcher.js';
import type { RipgrepSearches } from './ripgrep-prefilter.js';

/** What a line from ripgrep is read after: a line a backslash joins to it. */
const JOINED_LINE = '\\\n';

/**
 * For a search of definitions alone: ripgrep's matching lines show which files may declare the query (the same lexical rules
 * as a scan's, on one line); the others are not read, but for those over 2 MB, which still count for their hint. Falls back
 * to the plain prefilter when the lines could not be read.
 */
export async function definitionCandidates(
  searches: RipgrepSearches,
  request: Parameters<CandidatePrefilter>[0],
  matcher: LiteralMatcher,
  workspace: Workspace,
): Promise<ReadonlySet<string> | undefined> {
  const length = matcher.query.length;
  const found = await searches.definitionCandidates(request, (path, line) => {
    const grammar = languageOfPath(path)?.grammar;
    // A line alone does not show how the line before it ended: it is read as following a line that a backslash joins
    // to it (in Python, `def \` then the name), which the rules take as telling nothing.
    const joined = `${JOINED_LINE}${line}`;
    const starts = matcher.find(joined);
    // A line with no occurrence this search sees (no grammar, or ripgrep matched what it does not): the scan decides.
    return grammar === undefined || starts.length === 0 || occurrencesNeedParse(joined, starts, length, grammar, true);
  });
  if (!found) return searches.prefilter(request);
  const candidates = new Set(found.files);
  await Promise.all(
    [...found.noDeclaration].map(async (path) => {
      const stat = await workspace.lstat(path).catch(() => undefined);
      if (stat && stat.size <= MAX_PARSE_BYTES) candidates.delete(path);
    }),
  );
  return candidates;
}
