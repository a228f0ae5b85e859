import { expect, it } from 'vitest';
import { main } from './index.js';

it('an MCP client lists the advanced tools and gets a result and an isError result', { timeout: 120_000 }, async () => {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  expect(lines).toEqual([
    'tools: exec_command, write_stdin, apply_patch, search_tools, code_search',
    'exec_command isError=false → hello from MCP',
    'write_stdin isError=true → Error [unknown_session]: No session with ID 99',
  ]);
});
