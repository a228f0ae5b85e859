export { createMcpServer, toMcpTools, toMcpResult, type McpServerOptions, type McpToolHost } from './create-mcp-server.js';
export type { McpHostOptions } from './environment-host.js';
export {
  createMcpHttpServer,
  DEFAULT_IDLE_TIMEOUT_MS,
  type McpHttpServer,
  type McpHttpServerOptions,
  type McpSessionEndReason,
} from './mcp-http-server.js';
export type { McpSessionHost } from './mcp-session-host.js';
