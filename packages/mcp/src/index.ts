export { createMcpServer, toMcpTools, toMcpResult, type McpServerOptions, type McpToolHost } from './create-mcp-server.js';
export type { McpHostOptions } from './environment-host.js';
export { DEFAULT_IDLE_TIMEOUT_MS, type McpHttpServerOptions, type McpSessionEndReason } from './mcp-http-options.js';
export { createMcpHttpServer, type McpHttpServer } from './mcp-http-server.js';
export type { McpSessionHost } from './mcp-session-host.js';
