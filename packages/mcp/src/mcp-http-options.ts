import { ToolHostError, type Environment } from 'toolhost';
import type { McpServerOptions } from './create-mcp-server.js';
import { createEnvironmentHost, type McpHostOptions } from './environment-host.js';
import type { McpSessionHost } from './mcp-session-host.js';
import { normalizeOrigin } from './request-origin.js';

/** Options of {@link createMcpHttpServer}. */
export interface McpHttpServerOptions extends McpServerOptions {
  /** Creates the tool host of a new MCP session (each session gets its own, closed when the session ends); or give `environment`. */
  createHost?: () => McpSessionHost | Promise<McpSessionHost>;
  /**
   * Starts the environment of a new MCP session (`() => createDockerEnvironment({ image, root })` gives each session a
   * fresh container, removed when the session ends); the session's tool host runs there with the `host` options. A
   * call that fails because the environment stopped answering tells the model so. Give this or `createHost`.
   */
  environment?: () => Environment | Promise<Environment>;
  /** Tool host options of every session started through `environment` (profile, catalog, …). */
  host?: McpHostOptions;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`); requests without it get 401. */
  token: string;
  /** URL path the MCP endpoint answers on (default `/mcp`). */
  path?: string;
  /**
   * Browser origins (`https://app.example:8443`) served besides the loopback ones (http or https on localhost,
   * 127.x.x.x or [::1], any port); a request with another `Origin` header gets 403, one without it (a non-browser
   * client) is served.
   */
  allowedOrigins?: readonly string[];
  /**
   * How long a session may go without a request and without a tool call running before it ends, its host closed and
   * its processes killed (default 900,000 ms, 15 minutes; 0 never ends a session for idleness).
   */
  idleTimeoutMs?: number;
  /** Called once a session has ended and its host is closed. */
  onSessionEnd?: (sessionId: string, reason: McpSessionEndReason) => void;
}

/**
 * Why an MCP session ended: the client sent DELETE, it stayed idle past `idleTimeoutMs`, its transport closed, or the
 * server closed.
 */
export type McpSessionEndReason = 'deleted' | 'idle' | 'transport_closed' | 'server_closed';

/** Default time an idle MCP session is kept. */
export const DEFAULT_IDLE_TIMEOUT_MS = 15 * 60_000;

/** Longest delay a Node timer takes. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The checked options of an HTTP server, with their defaults filled in. */
export interface CheckedHttpServerOptions {
  idleTimeoutMs: number;
  /** Normalized origins served besides the loopback ones. */
  allowedOrigins: Set<string>;
  /** Makes one session's host, from `createHost` or over a new `environment`. */
  createHost: () => McpSessionHost | Promise<McpSessionHost>;
  path: string;
}

/** A session's host over a new environment; the environment is closed when the host cannot be made. */
async function hostOver(
  environment: () => Environment | Promise<Environment>,
  options: McpHostOptions | undefined,
): Promise<McpSessionHost> {
  const started = await environment();
  try {
    return createEnvironmentHost(started, options);
  } catch (error) {
    await started.close().catch(() => undefined);
    throw error;
  }
}

/** Checks the options of {@link createMcpHttpServer}, throwing `invalid_options` at the first wrong one. */
export function checkHttpServerOptions(options: McpHttpServerOptions): CheckedHttpServerOptions {
  if (typeof options.token !== 'string' || options.token.length === 0)
    throw new ToolHostError('invalid_options', 'createMcpHttpServer needs a non-empty token');
  const idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  if (typeof idleTimeoutMs !== 'number' || !(idleTimeoutMs >= 0 && idleTimeoutMs <= MAX_TIMER_MS)) {
    throw new ToolHostError('invalid_options', `idleTimeoutMs must be a number from 0 to ${MAX_TIMER_MS}, got ${String(idleTimeoutMs)}`);
  }
  const allowedOrigins = new Set<string>();
  for (const origin of options.allowedOrigins ?? []) {
    const normalized = typeof origin === 'string' ? normalizeOrigin(origin) : undefined;
    if (normalized === undefined)
      throw new ToolHostError('invalid_options', `allowedOrigins entries must be http(s)://host[:port] origins, got ${String(origin)}`);
    allowedOrigins.add(normalized);
  }
  if ((options.createHost === undefined) === (options.environment === undefined)) {
    throw new ToolHostError('invalid_options', 'createMcpHttpServer needs exactly one of createHost or environment');
  }
  for (const [name, value] of [
    ['createHost', options.createHost],
    ['environment', options.environment],
  ] as const) {
    if (value !== undefined && typeof value !== 'function')
      throw new ToolHostError(
        'invalid_options',
        `${name} must be a function that starts one session's ${name === 'createHost' ? 'host' : 'environment'}`,
      );
  }
  if (options.host !== undefined && options.environment === undefined)
    throw new ToolHostError('invalid_options', 'host options apply only with environment (createHost makes the whole host)');
  const createHost = options.createHost ?? (() => hostOver(options.environment!, options.host));
  return { idleTimeoutMs, allowedOrigins, createHost, path: options.path ?? '/mcp' };
}
