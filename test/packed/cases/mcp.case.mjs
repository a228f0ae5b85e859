// The installed toolhost-mcp binary over stdio, driven by the MCP SDK client, a PTY call included.
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export default [
  {
    name: 'toolhost-mcp serves the tools over stdio (pipes and a PTY)',
    async run({ assert, projectDir, tempWorkspace }) {
      const workspace = tempWorkspace({ 'a.txt': 'alpha\n' });
      const transport = new StdioClientTransport({
        command: join(projectDir, 'node_modules', '.bin', 'toolhost-mcp'),
        args: ['--workspace', workspace, '--profile', 'advanced'],
        stderr: 'pipe',
      });
      const client = new Client({ name: 'packed-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name).sort(), ['apply_patch', 'code_search', 'exec_command', 'search_tools', 'write_stdin']);
        const piped = await client.callTool({ name: 'exec_command', arguments: { cmd: 'cat a.txt' } });
        assert.ok(!piped.isError, JSON.stringify(piped));
        assert.match(piped.content[0].text, /Output:\nalpha\n$/);
        const tty = await client.callTool({ name: 'exec_command', arguments: { cmd: "printf 'a\\rb\\n'; [ -t 0 ] && echo tty", tty: true } });
        assert.ok(!tty.isError, JSON.stringify(tty));
        assert.match(tty.content[0].text, /Output:\nb\ntty\n$/);
      } finally {
        await client.close();
      }
    },
  },
];
