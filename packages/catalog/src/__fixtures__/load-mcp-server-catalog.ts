import { readFileSync } from 'node:fs';
import type { CatalogEntry } from '../catalog-entry.js';

/** One real MCP server's tool list as stored in mcp-server-tools.json. */
export interface McpServerToolList {
  server: string;
  /** Repository the list was read from. */
  source: string;
  commit: string;
  files: string[];
  tools: { name: string; description: string; inputSchema: Record<string, unknown>; tags?: string[] }[];
}

/** The tool lists of real MCP servers (23 servers, 583 tools), with where each came from. */
export function loadMcpServerToolLists(): McpServerToolList[] {
  const text = readFileSync(new URL('./mcp-server-tools.json', import.meta.url), 'utf8');
  return (JSON.parse(text) as { servers: McpServerToolList[] }).servers;
}

/** The real MCP server tools as catalog entries whose handlers echo their arguments. */
export function loadMcpServerCatalog(): CatalogEntry[] {
  return loadMcpServerToolLists().flatMap((list) =>
    list.tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema,
      ...(tool.tags ? { tags: tool.tags } : {}),
      handler: (args: Record<string, unknown>) => `${tool.name} ${JSON.stringify(args)}`,
    })),
  );
}
