import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeBearer } from './bearer-authorization.js';
import { replyError } from './http-error-reply.js';
import { checkHttpServerOptions, type McpHttpServerOptions } from './mcp-http-options.js';
import { openMcpHttpSession, type McpHttpSession } from './mcp-http-session.js';
import { isAllowedOrigin, isLoopbackAddress, isLoopbackHost } from './request-origin.js';

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

/**
 * Creates a streamable HTTP MCP server: Origin checks (403 for a foreign one) and, when bound to a loopback address,
 * Host checks against DNS rebinding; bearer-token auth (401 without it); one MCP session per client, each with its
 * own tool host. A session ends on DELETE, after `idleTimeoutMs` without requests or running calls, when its
 * transport closes, or with {@link McpHttpServer.close}.
 */
export function createMcpHttpServer(options: McpHttpServerOptions): McpHttpServer {
  const { idleTimeoutMs, allowedOrigins, createHost, path } = checkHttpServerOptions(options);
  const sessions = new Map<string, McpHttpSession>();

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const bound = server.address();
    // Bound to loopback, only a loopback Host is genuine: a DNS-rebound page sends its own host name.
    if (bound !== null && typeof bound === 'object' && isLoopbackAddress(bound.address) && !isLoopbackHost(req.headers.host)) {
      return replyError(res, 403, `Forbidden: Host ${req.headers.host ?? '(none)'} is not a loopback name (DNS rebinding protection)`);
    }
    const origin = req.headers.origin;
    if (!isAllowedOrigin(origin, allowedOrigins))
      return replyError(res, 403, `Forbidden: Origin ${origin} is not allowed (allow it with --allow-origin or allowedOrigins)`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return replyError(res, 404, `Not found: the MCP endpoint is ${path}`);
    if (!authorizeBearer(req, res, options.token)) return;
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return replyError(res, 404, 'Session not found: start a new one with an initialize request');
      session.touch();
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return replyError(res, 400, 'Bad request: no mcp-session-id; start a session with an initialize request');
    const session = await openMcpHttpSession({ options, createHost, idleTimeoutMs, sessions });
    await session.transport.handleRequest(req, res);
    // Anything but a successful initialize leaves no session: release the host made for it.
    if (session.transport.sessionId === undefined) await session.close('transport_closed');
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) =>
      replyError(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`),
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
