import type { McpToolHost } from './create-mcp-server.js';

/** A host the HTTP server owns: one per MCP session, closed with it. */
export type McpSessionHost = McpToolHost & { close(): Promise<void> };
