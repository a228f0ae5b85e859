/** A content search that lists the files holding a literal text (a prefilter: the files are read afterwards). */
export interface FileContentQuery {
  /** The literal text to find. */
  text: string;
  /** Whether case must match. */
  caseSensitive: boolean;
  /** Workspace-relative folder to search (`''` is the root). */
  start: string;
  /** Lower-case extensions (without the dot) to limit the search to. */
  extensions?: ReadonlySet<string>;
  /** Aborts the search. */
  signal?: AbortSignal;
}

function globEscape(text: string): string {
  return text.replace(/[\\*?[\]{}!]/g, '\\$&');
}

/**
 * The ripgrep arguments that list, NUL-separated, the files under `start` holding `text` (run from the workspace root),
 * with the ignore rules code_search's own walk applies.
 */
export function ripgrepFileListArguments(query: FileContentQuery): string[] {
  return [
    '--files-with-matches',
    '--fixed-strings',
    query.caseSensitive ? '--case-sensitive' : '--ignore-case',
    '--hidden',
    '--no-require-git',
    '--no-ignore-global',
    '--no-ignore-dot',
    '--no-ignore-parent',
    '--no-messages',
    '--no-config',
    '--binary',
    '--null',
    '--glob',
    '!.git',
    ...[...(query.extensions ?? [])].flatMap((extension) => ['--iglob', `*.${globEscape(extension)}`]),
    '--regexp',
    query.text,
    '--',
    query.start || '.',
  ];
}

/** Parses ripgrep's NUL-separated file list into workspace-relative paths. */
export function parseRipgrepFileList(output: string): Set<string> {
  const files = new Set<string>();
  for (const entry of output.split('\0')) if (entry) files.add(entry.startsWith('./') ? entry.slice(2) : entry);
  return files;
}
