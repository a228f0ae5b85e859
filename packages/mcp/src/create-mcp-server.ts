import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolHost, ToolResult } from 'toolhost';

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
}

/** The host's current tools as MCP tools; the JSON Schemas pass through unchanged. */
export function toMcpTools(host: Pick<ToolHost, 'tools'>): Tool[] {
  return host.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema as Tool['inputSchema'] }));
}

/** Maps a host result to an MCP tool result: the model-visible text, `isError` for a failed call. */
export function toMcpResult(result: ToolResult): CallToolResult {
  return { content: [{ type: 'text', text: result.output }], isError: !result.ok };
}

/**
 * Creates an MCP server exposing the host's tools through low-level `tools/list` and `tools/call` handlers. When
 * search_tools expands deferred tools, the server starts the next segment and sends `notifications/tools/list_changed`.
 */
export function createMcpServer(host: McpToolHost, options: McpServerOptions = {}): Server {
  const server = new Server(
    { name: options.name ?? 'toolhost', version: options.version ?? '0.1.0' },
    { capabilities: { tools: { listChanged: true } } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toMcpTools(host) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const result = await host.call(name, args ?? {});
    options.onResult?.(name, result);
    const expanded = result.data?.expanded;
    if (name === 'search_tools' && result.ok && Array.isArray(expanded) && expanded.length > 0) {
      host.nextSegment();
      await server.sendToolListChanged();
    }
    return toMcpResult(result);
  });
  return server;
}
