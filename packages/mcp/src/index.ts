export { createMcpServer, toMcpTools, toMcpResult, type McpServerOptions, type McpToolHost } from './create-mcp-server.js';
