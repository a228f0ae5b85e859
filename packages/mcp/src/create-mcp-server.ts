import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { toolListChange, type ToolHost, type ToolResult, type ToolRole } from 'toolhost';

/** The part of a tool host the MCP server uses (a real host or the fake one). */
export type McpToolHost = Pick<ToolHost, 'tools' | 'call' | 'nextSegment'>;

/** Options of {@link createMcpServer}. */
export interface McpServerOptions {
  /** Server name reported to clients (default `toolhost`). */
  name?: string;
  /** Server version reported to clients (default this package's version). */
  version?: string;
  /** Called after each tool call with its full result. */
  onResult?: (name: string, result: ToolResult) => void;
  /** How often a call that asked for progress hears that its command still runs (default 1,000 ms). */
  progressIntervalMs?: number;
}

/** The roles of tools that run commands, so a client asking for progress hears from them while they run. */
const LONG_RUNNING = new Set<ToolRole | undefined>(['shell', 'shell-input']);

/**
 * The host's current tools as MCP tools: the JSON Schemas pass through unchanged; built-in tools carry annotations
 * (read-only or destructive) and the schema of their structured result.
 */
export function toMcpTools(host: Pick<ToolHost, 'tools'>): Tool[] {
  return host.tools.map((tool) => {
    const listed: Tool = { name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Tool['inputSchema'] };
    if (tool.outputSchema) listed.outputSchema = tool.outputSchema as Tool['outputSchema'];
    if (tool.annotations) listed.annotations = { ...tool.annotations };
    return listed;
  });
}

/**
 * Maps a host result to an MCP tool result: the model-visible text, `isError` for a failed call, and the result's
 * `data` as `structuredContent` (always an object for tools that declare an output schema).
 */
export function toMcpResult(result: ToolResult, withStructure = result.data !== undefined): CallToolResult {
  const mapped: CallToolResult = { content: [{ type: 'text', text: result.output }], isError: !result.ok };
  if (withStructure) mapped.structuredContent = { ...(result.data ?? {}), ...(result.ok ? {} : { error: result.error }) };
  return mapped;
}

/**
 * Creates an MCP server exposing the host's tools through low-level `tools/list` and `tools/call` handlers. When
 * search_tools expands deferred tools, the server starts the next segment and sends `notifications/tools/list_changed`.
 * A cancelled call kills the command it runs; a call with a progress token hears about a running command.
 *
 * @example
 * ```ts
 * import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
 * import { createMcpServer } from '@toolhost/mcp';
 * import { createToolHost } from 'toolhost';
 *
 * const host = createToolHost({ workspace: process.cwd(), profile: 'advanced' });
 * await createMcpServer(host).connect(new StdioServerTransport());
 * ```
 */
export function createMcpServer(host: McpToolHost, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'toolhost', version: options.version ?? '0.1.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  const progressIntervalMs = options.progressIntervalMs ?? 1_000;
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toMcpTools(host) }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const definition = host.tools.find((tool) => tool.name === name);
    const progressToken = request.params._meta?.progressToken;
    let timer: ReturnType<typeof setInterval> | undefined;
    if (progressToken !== undefined && LONG_RUNNING.has(definition?.role)) {
      const started = Date.now();
      timer = setInterval(() => {
        const seconds = Math.round((Date.now() - started) / 1000);
        extra
          .sendNotification({
            method: 'notifications/progress',
            params: { progressToken, progress: seconds, message: `${name} still running after ${seconds} s` },
          })
          .catch(() => {});
      }, progressIntervalMs);
    }
    let result: ToolResult;
    try {
      result = await host.call(name, args ?? {}, { signal: extra.signal, callId: String(extra.requestId) });
    } finally {
      if (timer) clearInterval(timer);
    }
    options.onResult?.(name, result);
    if (definition?.role === 'catalog' && toolListChange(result).changed) {
      host.nextSegment();
      await server.sendToolListChanged();
    }
    return toMcpResult(result, definition?.outputSchema !== undefined || result.data !== undefined);
  });
  return server;
}
