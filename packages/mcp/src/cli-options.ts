import { parseArgs } from 'node:util';
import type { ShellProfileSetting, ToolProfile } from 'toolhost';
import { normalizeOrigin } from './request-origin.js';

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
  /** Browser origins served besides the loopback ones (normalized). */
  allowedOrigins?: string[];
  /** Idle time after which an HTTP session ends, in milliseconds (0: never). */
  idleTimeoutMs?: number;
}

/** Usage text of `toolhost-mcp`. */
export const CLI_USAGE = `Usage: toolhost-mcp [--workspace DIR] [--profile default|advanced] [--shell-profile auto|unix_like|powershell] [--catalog MODULE]
                    [--http HOST:PORT (--token T | --token-file F) [--allow-origin ORIGIN]... [--idle-timeout SECONDS]]
Serves a toolhost workspace over MCP on stdin/stdout (until stdin closes), or over streamable HTTP with --http.
  --workspace DIR         folder the tools work in (default: the current folder)
  --profile               tool profile (default: default)
  --shell-profile         shell syntax the model is told to use (default: auto)
  --catalog MODULE        module exporting deferred catalog tools (default export or "catalog")
  --http HOST:PORT        serve streamable HTTP at http://HOST:PORT/mcp, one tool host per MCP session
  --token T               bearer token HTTP clients must send (Authorization: Bearer T)
  --token-file F          read the bearer token from file F (first line)
  --allow-origin ORIGIN   also serve browser requests from ORIGIN (https://host[:port]; repeatable); by default only
                          requests without Origin and from localhost, 127.x.x.x or [::1] origins are served
  --idle-timeout SECONDS  end a session idle this long, killing its processes (default: 900; 0: never)`;

/** Longest idle timeout: what a Node timer takes, in whole seconds. */
const MAX_IDLE_TIMEOUT_MS = 2_147_483_000;

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
        'allow-origin': { type: 'string', multiple: true },
        'idle-timeout': { type: 'string' },
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
    if (parsed['allow-origin'] !== undefined || parsed['idle-timeout'] !== undefined) return { error: '--allow-origin and --idle-timeout apply only with --http' };
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
  if (parsed['allow-origin'] !== undefined) {
    options.allowedOrigins = [];
    for (const origin of parsed['allow-origin']) {
      const normalized = normalizeOrigin(origin);
      if (normalized === undefined) return { error: `--allow-origin must be an origin like https://app.example or http://host:8080, got ${origin}` };
      options.allowedOrigins.push(normalized);
    }
  }
  if (parsed['idle-timeout'] !== undefined) {
    const seconds = parsed['idle-timeout'].trim() === '' ? NaN : Number(parsed['idle-timeout']);
    if (!(seconds >= 0 && seconds * 1000 <= MAX_IDLE_TIMEOUT_MS)) {
      return { error: `--idle-timeout must be a number of seconds from 0 to ${MAX_IDLE_TIMEOUT_MS / 1000}, got ${parsed['idle-timeout']}` };
    }
    options.idleTimeoutMs = seconds === 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
  }
  return options;
}
