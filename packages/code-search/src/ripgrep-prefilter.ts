import { parseRipgrepFileList, ripgrepFileListArguments } from '@toolhost/core';
import type { CandidatePrefilter } from './code-search-tool.js';

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

/**
 * A content prefilter for disk workspaces: `rg -l -F` lists the files that contain the query, so only those are read.
 * Returns undefined (no opinion; the pure-JS scan runs) for memory workspaces, when rg is missing or when it fails.
 * Node builtins are imported lazily, so this module is safe in the package's root entry.
 */
export function createRipgrepPrefilter(options: RipgrepPrefilterOptions = {}): CandidatePrefilter {
  // Looked up as the prefilter is made, not in the first search: loading these modules took that search 15-20 ms.
  const binary = options.rgPath ? Promise.resolve(options.rgPath) : defaultRgPath();
  const childProcess = import('node:child_process').catch(() => undefined);
  return async ({ workspace, query, caseSensitive, start, extensions, signal }) => {
    // A workspace that searches where its files are (a container, an SSH host) does so; local rg never reads its root.
    if (workspace.findFilesContaining) return workspace.findFilesContaining({ text: query, caseSensitive, start, extensions, signal });
    if (!workspace.onDisk) return undefined;
    const rg = await binary;
    const spawn = (await childProcess)?.spawn;
    if (!rg || !spawn) return undefined;
    const args = ripgrepFileListArguments({ text: query, caseSensitive, start, extensions });
    return new Promise((resolve) => {
      const child = spawn(rg, args, { cwd: workspace.root, stdio: ['ignore', 'pipe', 'ignore'], signal });
      const chunks: Uint8Array[] = [];
      child.stdout.on('data', (chunk: Uint8Array) => chunks.push(chunk));
      child.on('error', () => resolve(undefined));
      child.on('close', (code) => {
        // 0: matches, 1: no match, 2: some error (unreadable files); trust only 0 and 1.
        if (code !== 0 && code !== 1) return resolve(undefined);
        const decoder = new TextDecoder();
        resolve(parseRipgrepFileList(chunks.map((chunk) => decoder.decode(chunk, { stream: true })).join('') + decoder.decode()));
      });
    });
  };
}
