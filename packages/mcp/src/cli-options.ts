import { parseArgs } from 'node:util';
import type { ShellProfileSetting, ToolProfile } from 'toolhost';

/** Parsed command line of `toolhost-mcp`. */
export interface CliOptions {
  workspace: string;
  profile: ToolProfile;
  shellProfile: ShellProfileSetting;
  /** A module whose `default` (or `catalog`) export is a CatalogEntry[]. */
  catalog?: string;
  /** Serve streamable HTTP on this address instead of stdio. */
  http?: { hostname: string; port: number };
  /** The bearer token HTTP clients must send (from --token, or the file --token-file names, resolved). */
  token?: string;
  /** The file holding the token (read by the CLI). */
  tokenFile?: string;
}

/** Usage text of `toolhost-mcp`. */
export const CLI_USAGE = `Usage: toolhost-mcp [--workspace DIR] [--profile default|advanced] [--shell-profile auto|unix_like|powershell] [--catalog MODULE]
                    [--http HOST:PORT (--token T | --token-file F)]
Serves a toolhost workspace over MCP on stdin/stdout, or over streamable HTTP with --http.
  --workspace DIR      folder the tools work in (default: the current folder)
  --profile            tool profile (default: default)
  --shell-profile      shell syntax the model is told to use (default: auto)
  --catalog MODULE     module exporting deferred catalog tools (default export or "catalog")
  --http HOST:PORT     serve streamable HTTP at http://HOST:PORT/mcp, one tool host per MCP session
  --token T            bearer token HTTP clients must send (Authorization: Bearer T)
  --token-file F       read the bearer token from file F (first line)`;

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
        http: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
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
  const options: CliOptions = {
    workspace: resolvePath(cwd, parsed.workspace ?? '.'),
    profile,
    shellProfile,
    catalog: parsed.catalog === undefined ? undefined : resolvePath(cwd, parsed.catalog),
  };
  if (parsed.http === undefined) {
    if (parsed.token !== undefined || parsed['token-file'] !== undefined) return { error: '--token and --token-file apply only with --http' };
    return options;
  }
  const address = /^(.+):(\d{1,5})$/.exec(parsed.http);
  const port = address ? Number(address[2]) : NaN;
  if (!address || port > 65535) return { error: `--http must be HOST:PORT (for example 127.0.0.1:8765), got ${parsed.http}` };
  if ((parsed.token === undefined) === (parsed['token-file'] === undefined)) return { error: '--http needs exactly one of --token T or --token-file F' };
  if (parsed.token !== undefined && parsed.token.trim() === '') return { error: '--token must not be empty' };
  options.http = { hostname: address[1].replace(/^\[(.*)\]$/, '$1'), port };
  if (parsed.token !== undefined) options.token = parsed.token.trim();
  else options.tokenFile = resolvePath(cwd, parsed['token-file'] as string);
  return options;
}
