import { parseRipgrepFileList, ripgrepFileListArguments } from '@toolhost/core';
import type { CandidatePrefilter } from './candidate-prefilter.js';
import { createRipgrepLineReader } from './ripgrep-line-reader.js';

/** Options of {@link createRipgrepPrefilter}. */
export interface RipgrepPrefilterOptions {
  /** The rg binary; default: the one shipped in `@vscode/ripgrep` when it is installed. */
  rgPath?: string;
}

async function defaultRgPath(): Promise<string | undefined> {
  try {
    const specifier = '@vscode/ripgrep';
    const module = (await import(specifier)) as { rgPath?: string };
    return module.rgPath;
  } catch {
    return undefined;
  }
}

type PrefilterRequest = Parameters<CandidatePrefilter>[0];

/** The files ripgrep found holding the query, and those of them where no matching line may declare it. */
export interface DefinitionCandidates {
  files: Set<string>;
  noDeclaration: Set<string>;
}

/** ripgrep as code_search runs it. */
export interface RipgrepSearches {
  /** `rg -l -F`: the files that contain the query. */
  prefilter: CandidatePrefilter;
  /**
   * For a search of definitions alone: the files that contain the query, read from their matching lines, with those where
   * `mayDeclare` (given each line) never says yes. Undefined where the prefilter would answer undefined, or when the output
   * could not be read.
   */
  definitionCandidates(
    request: PrefilterRequest,
    mayDeclare: (path: string, line: string) => boolean,
  ): Promise<DefinitionCandidates | undefined>;
}

/** Lines longer than this are left out of ripgrep's output (a notice stands in for them, and the file counts as possible). */
const MAX_LINE_COLUMNS = 4096;
/** ripgrep's stand-in for a line over MAX_LINE_COLUMNS. */
const OMITTED_LINE = /^\[Omitted long (?:matching )?line(?: with \d+ matches)?\]$/;

/** Creates both ripgrep searches over one lookup of the binary. Node builtins are imported lazily. */
export function createRipgrepSearches(options: RipgrepPrefilterOptions = {}): RipgrepSearches {
  // Looked up as the prefilter is made, so the first search does not wait for these modules to load.
  const binary = options.rgPath ? Promise.resolve(options.rgPath) : defaultRgPath();
  const childProcess = import('node:child_process').catch(() => undefined);

  /** Runs rg in the workspace root, handing its output over as it comes; resolves whether it ended with 0 or 1. */
  const run = async (request: PrefilterRequest, args: string[], onData: (chunk: Uint8Array) => void): Promise<boolean | undefined> => {
    const rg = await binary;
    const spawn = (await childProcess)?.spawn;
    if (!rg || !spawn) return undefined;
    return new Promise((resolve) => {
      const child = spawn(rg, args, { cwd: request.workspace.root, stdio: ['ignore', 'pipe', 'ignore'], signal: request.signal });
      child.stdout.on('data', onData);
      child.on('error', () => resolve(false));
      // 0: matches, 1: no match, 2: some error (unreadable files); trust only 0 and 1.
      child.on('close', (code) => resolve(code === 0 || code === 1));
    });
  };

  const prefilter: CandidatePrefilter = async (request) => {
    const { workspace, query, caseSensitive, start, extensions, signal } = request;
    // A workspace that searches where its files are (a container, an SSH host) does so; local rg never reads its root.
    if (workspace.findFilesContaining) return workspace.findFilesContaining({ text: query, caseSensitive, start, extensions, signal });
    if (!workspace.onDisk) return undefined;
    const chunks: Uint8Array[] = [];
    const ok = await run(request, ripgrepFileListArguments({ text: query, caseSensitive, start, extensions }), (chunk) =>
      chunks.push(chunk),
    );
    if (!ok) return undefined;
    const decoder = new TextDecoder();
    return parseRipgrepFileList(chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode());
  };

  const definitionCandidates: RipgrepSearches['definitionCandidates'] = async (request, mayDeclare) => {
    const { workspace, query, caseSensitive, start, extensions } = request;
    if (workspace.findFilesContaining || !workspace.onDisk) return undefined;
    const files = new Set<string>();
    const possible = new Set<string>();
    const reader = createRipgrepLineReader((path, line) => {
      files.add(path);
      if (possible.has(path)) return;
      // A binary file or a line left out: the scan decides.
      if (line === undefined || OMITTED_LINE.test(line) || mayDeclare(path, line)) possible.add(path);
    });
    const args = ripgrepFileListArguments({ text: query, caseSensitive, start, extensions }).filter(
      (arg) => arg !== '--files-with-matches',
    );
    let readable = true;
    const ok = await run(
      request,
      ['--no-heading', '--with-filename', '--no-line-number', '--color=never', `--max-columns=${MAX_LINE_COLUMNS}`, ...args],
      (chunk) => {
        if (readable) readable = reader.push(chunk);
      },
    );
    if (!ok || !readable || !reader.end()) return undefined;
    return { files, noDeclaration: new Set([...files].filter((path) => !possible.has(path))) };
  };

  return { prefilter, definitionCandidates };
}

/**
 * A content prefilter for disk workspaces: `rg -l -F` lists the files that contain the query, so only those are read.
 * Returns undefined (no opinion; the pure-JS scan runs) for memory workspaces, when rg is missing or when it fails.
 * Node builtins are imported lazily, so this module is safe in the package's root entry.
 */
export function createRipgrepPrefilter(options: RipgrepPrefilterOptions = {}): CandidatePrefilter {
  return createRipgrepSearches(options).prefilter;
}
