import { parseArgs } from 'node:util';
import type { ShellProfileSetting, ToolProfile } from 'toolhost';

/** Parsed command line of `toolhost-mcp`. */
export interface CliOptions {
  workspace: string;
  profile: ToolProfile;
  shellProfile: ShellProfileSetting;
  /** A module whose `default` (or `catalog`) export is a CatalogEntry[]. */
  catalog?: string;
}

/** Usage text of `toolhost-mcp`. */
export const CLI_USAGE = `Usage: toolhost-mcp [--workspace DIR] [--profile default|advanced] [--shell-profile auto|unix_like|powershell] [--catalog MODULE]
Serves a toolhost workspace over MCP on stdin/stdout.
  --workspace DIR      folder the tools work in (default: the current folder)
  --profile            tool profile (default: default)
  --shell-profile      shell syntax the model is told to use (default: auto)
  --catalog MODULE     module exporting deferred catalog tools (default export or "catalog")`;

/** Parses `toolhost-mcp` arguments; returns an error message instead of throwing. */
export function parseCliOptions(argv: string[], cwd: string, resolvePath: (base: string, path: string) => string): CliOptions | { error: string } | { help: true } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        workspace: { type: 'string' },
        profile: { type: 'string' },
        'shell-profile': { type: 'string' },
        catalog: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  if (parsed.help) return { help: true };
  const profile = parsed.profile ?? 'default';
  if (profile !== 'default' && profile !== 'advanced') return { error: `--profile must be default or advanced, got ${profile}` };
  const shellProfile = parsed['shell-profile'] ?? 'auto';
  if (shellProfile !== 'auto' && shellProfile !== 'unix_like' && shellProfile !== 'powershell') {
    return { error: `--shell-profile must be auto, unix_like or powershell, got ${shellProfile}` };
  }
  return {
    workspace: resolvePath(cwd, parsed.workspace ?? '.'),
    profile,
    shellProfile,
    catalog: parsed.catalog === undefined ? undefined : resolvePath(cwd, parsed.catalog),
  };
}
