import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ToolHostError, type Environment } from 'toolhost';
import { createMcpServer, type McpServerOptions, type McpToolHost } from './create-mcp-server.js';
import { createEnvironmentHost, type McpHostOptions } from './environment-host.js';
import type { McpSessionHost } from './mcp-session-host.js';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost, normalizeOrigin } from './request-origin.js';

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

/** The realm named in every `WWW-Authenticate` challenge. */
const REALM = 'toolhost-mcp';

/** A running streamable HTTP MCP server. */
export interface McpHttpServer {
  /** The underlying Node HTTP server. */
  readonly server: HttpServer;
  /** Ids of the open MCP sessions. */
  sessionIds(): string[];
  /** Starts listening; resolves with the bound address (port 0 picks a free one). */
  listen(port: number, hostname: string): Promise<AddressInfo>;
  /** Stops accepting connections and closes every session and its host. */
  close(): Promise<void>;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  host: McpSessionHost;
  /** A request arrived: the idle time starts again. */
  touch(): void;
  close(reason: McpSessionEndReason): Promise<void>;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function reply(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
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

/**
 * Creates a streamable HTTP MCP server: Origin checks (403 for a foreign one) and, when bound to a loopback address,
 * Host checks against DNS rebinding; bearer-token auth (401 without it); one MCP session per client, each with its
 * own tool host. A session ends on DELETE, after `idleTimeoutMs` without requests or running calls, when its
 * transport closes, or with {@link McpHttpServer.close}.
 */
export function createMcpHttpServer(options: McpHttpServerOptions): McpHttpServer {
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
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, Session>();

  const openSession = async (): Promise<Session> => {
    const host = await createHost();
    let closing: Promise<void> | undefined;
    let runningCalls = 0;
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const stopIdleTimer = () => {
      if (idleTimer !== undefined) clearTimeout(idleTimer);
      idleTimer = undefined;
    };
    const startIdleTimer = () => {
      stopIdleTimer();
      if (idleTimeoutMs === 0 || runningCalls > 0 || closing) return;
      idleTimer = setTimeout(() => void session.close('idle'), idleTimeoutMs);
      // An idle session alone does not keep the process running.
      idleTimer.unref();
    };
    // Tool calls go through here, so a session with one running is never idle, however long it runs.
    const countedHost: McpToolHost = {
      get tools() {
        return host.tools;
      },
      nextSegment: () => host.nextSegment(),
      call: async (name, args, callOptions) => {
        runningCalls += 1;
        stopIdleTimer();
        try {
          return await host.call(name, args, callOptions);
        } finally {
          runningCalls -= 1;
          startIdleTimer();
        }
      },
    };
    const server = createMcpServer(countedHost, options);
    const session: Session = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      host,
      touch: startIdleTimer,
      close(reason) {
        // Started a tick later, so closing the server (which closes the transport, which calls this again) finds it set.
        closing ??= Promise.resolve().then(async () => {
          stopIdleTimer();
          const id = session.transport.sessionId;
          if (id !== undefined) sessions.delete(id);
          await server.close().catch(() => {});
          await host.close();
          if (id !== undefined) options.onSessionEnd?.(id, reason);
        });
        return closing;
      },
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
        startIdleTimer();
      },
      // A DELETE ends the session: release its host at once rather than leave it behind.
      onsessionclosed: () => session.close('deleted'),
    });
    session.transport.onclose = () => void session.close('transport_closed');
    await server.connect(session.transport);
    return session;
  };

  // RFC 6750 section 3.1: no credentials get a bare challenge, a malformed request invalid_request, a wrong token invalid_token.
  const authorize = (req: IncomingMessage, res: ServerResponse): boolean => {
    const match = /^Bearer(?:\s+(.*))?$/i.exec(req.headers.authorization ?? '');
    if (!match) {
      reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': `Bearer realm="${REALM}"` });
      return false;
    }
    const given = (match[1] ?? '').trim();
    if (given === '') {
      const message = 'Bad request: the Authorization header names Bearer but carries no token';
      reply(res, 400, message, { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_request", error_description="${message}"` });
      return false;
    }
    if (!sameToken(given, options.token)) {
      const message = 'Unauthorized: the bearer token is wrong';
      reply(res, 401, message, { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${message}"` });
      return false;
    }
    return true;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const bound = server.address();
    // Bound to loopback, only a loopback Host is genuine: a DNS-rebound page sends its own host name.
    if (bound !== null && typeof bound === 'object' && isLoopbackAddress(bound.address) && !isLoopbackHost(req.headers.host)) {
      return reply(res, 403, `Forbidden: Host ${req.headers.host ?? '(none)'} is not a loopback name (DNS rebinding protection)`);
    }
    const origin = req.headers.origin;
    if (!isAllowedOrigin(origin, allowedOrigins))
      return reply(res, 403, `Forbidden: Origin ${origin} is not allowed (allow it with --allow-origin or allowedOrigins)`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return reply(res, 404, `Not found: the MCP endpoint is ${path}`);
    if (!authorize(req, res)) return;
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found: start a new one with an initialize request');
      session.touch();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'Bad request: no mcp-session-id; start a session with an initialize request');
    const session = await openSession();
    await session.transport.handleRequest(req, res);
    // Anything but a successful initialize leaves no session: release the host made for it.
    if (session.transport.sessionId === undefined) await session.close('transport_closed');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      reply(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`),
    );
  });

  return {
    server,
    sessionIds: () => [...sessions.keys()],
    listen(port, hostname) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, hostname, () => {
          server.off('error', reject);
          resolve(server.address() as AddressInfo);
        });
      });
    },
    async close() {
      await Promise.allSettled([...sessions.values()].map((session) => session.close('server_closed')));
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
