import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer, type McpServerOptions, type McpToolHost } from './create-mcp-server.js';

/** A host the HTTP server owns: one per MCP session, closed with it. */
export type McpSessionHost = McpToolHost & { close(): Promise<void> };

/** Options of {@link createMcpHttpServer}. */
export interface McpHttpServerOptions extends McpServerOptions {
  /** Creates the tool host of a new MCP session (each session gets its own, closed when the session ends). */
  createHost: () => McpSessionHost | Promise<McpSessionHost>;
  /** Bearer token every request must carry (`Authorization: Bearer <token>`); requests without it get 401. */
  token: string;
  /** URL path the MCP endpoint answers on (default `/mcp`). */
  path?: string;
}

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
  close(): Promise<void>;
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

/**
 * Creates a streamable HTTP MCP server: bearer-token auth (401 without it), one MCP session per client, each with its
 * own tool host; a session ends on DELETE, when its transport closes, or with {@link McpHttpServer.close}.
 */
export function createMcpHttpServer(options: McpHttpServerOptions): McpHttpServer {
  if (typeof options.token !== 'string' || options.token.length === 0) throw new TypeError('createMcpHttpServer needs a non-empty token');
  const path = options.path ?? '/mcp';
  const sessions = new Map<string, Session>();

  const openSession = async (): Promise<Session> => {
    const host = await options.createHost();
    const server = createMcpServer(host, options);
    let closing: Promise<void> | undefined;
    const session: Session = {
      transport: undefined as unknown as StreamableHTTPServerTransport,
      host,
      close() {
        // Started a tick later, so closing the server (which closes the transport, which calls this again) finds it set.
        closing ??= Promise.resolve().then(async () => {
          if (session.transport.sessionId) sessions.delete(session.transport.sessionId);
          await server.close().catch(() => {});
          await host.close();
        });
        return closing;
      },
    };
    session.transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, session);
      },
      // A DELETE ends the session: release its host at once rather than leave it behind.
      onsessionclosed: () => session.close(),
    });
    session.transport.onclose = () => void session.close();
    await server.connect(session.transport);
    return session;
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== path) return reply(res, 404, `Not found: the MCP endpoint is ${path}`);
    const auth = req.headers.authorization ?? '';
    const match = /^Bearer\s+(.+)$/i.exec(auth);
    if (!match || !sameToken(match[1].trim(), options.token)) {
      return reply(res, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': 'Bearer realm="toolhost-mcp"' });
    }
    const header = req.headers['mcp-session-id'];
    const sessionId = Array.isArray(header) ? header[0] : header;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return reply(res, 404, 'Session not found: start a new one with an initialize request');
      return session.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, 'Bad request: no mcp-session-id; start a session with an initialize request');
    const session = await openSession();
    await session.transport.handleRequest(req, res);
    // Anything but a successful initialize leaves no session: release the host made for it.
    if (session.transport.sessionId === undefined) await session.close();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => reply(res, 500, `Internal error: ${error instanceof Error ? error.message : String(error)}`));
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
      await Promise.allSettled([...sessions.values()].map((session) => session.close()));
      server.closeAllConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
