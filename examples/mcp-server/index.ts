// Serves a workspace over MCP with the toolhost-mcp bin and talks to it with the MCP SDK's client, as an MCP host
// (Claude Desktop, an IDE, an agent) would. In a client's config the server entry is:
//   { "command": "npx", "args": ["toolhost-mcp", "--workspace", "/path/to/repo", "--profile", "advanced"] }
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

type TextContent = Array<{ type: string; text: string }>;

/** Starts toolhost-mcp on a temporary folder, lists its tools and makes two calls, reporting through `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-mcp-example-'));
  writeFileSync(join(workspace, 'hello.txt'), 'hello from MCP\n');
  // In this repository the bin runs from source; installed, it is just `toolhost-mcp`.
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      '--conditions=@toolhost/source',
      '--import',
      'tsx',
      join(repoRoot, 'packages/mcp/src/cli.ts'),
      '--workspace',
      workspace,
      '--profile',
      'advanced',
    ],
    cwd: repoRoot,
    stderr: 'pipe',
  });
  const client = new Client({ name: 'toolhost-example', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    log(`tools: ${tools.map((tool) => tool.name).join(', ')}`);
    const cat = await client.callTool({ name: 'exec_command', arguments: { cmd: 'cat hello.txt' } });
    const text = (cat.content as TextContent)[0].text;
    log(`exec_command isError=${cat.isError === true} → ${text.slice(text.indexOf('Output:\n') + 8).trim()}`);
    const bad = await client.callTool({ name: 'write_stdin', arguments: { session_id: 99, chars: 'q' } });
    log(`write_stdin isError=${bad.isError === true} → ${(bad.content as TextContent)[0].text.split('.')[0]}`);
  } finally {
    await client.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
