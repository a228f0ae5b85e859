import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpServer, type McpToolHost } from './create-mcp-server.js';
import type { McpHttpServerOptions, McpSessionEndReason } from './mcp-http-options.js';
import type { McpSessionHost } from './mcp-session-host.js';

/** One MCP session of the HTTP server: its transport, its own tool host and its idle timer. */
export interface McpHttpSession {
  transport: StreamableHTTPServerTransport;
  host: McpSessionHost;
  /** A request arrived: the idle time starts again. */
  touch(): void;
  close(reason: McpSessionEndReason): Promise<void>;
}

/** What a new session needs of its server. */
export interface McpHttpSessionContext {
  options: McpHttpServerOptions;
  createHost: () => McpSessionHost | Promise<McpSessionHost>;
  idleTimeoutMs: number;
  /** The server's open sessions by id: a session joins once initialized and leaves when it closes. */
  sessions: Map<string, McpHttpSession>;
}

/**
 * Opens a session with a new host, connected to a new transport; it ends on DELETE, when idle past `idleTimeoutMs`
 * (a running tool call keeps it busy), when its transport closes, or when closed.
 */
export async function openMcpHttpSession({ options, createHost, idleTimeoutMs, sessions }: McpHttpSessionContext): Promise<McpHttpSession> {
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
  const session: McpHttpSession = {
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
}
