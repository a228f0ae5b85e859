// Runs a real tool host in a temporary workspace and prints each call and its result.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createToolHost } from 'toolhost';

const workspace = mkdtempSync(join(tmpdir(), 'toolhost-quickstart-'));
writeFileSync(join(workspace, 'greeting.txt'), 'hello world\n');

const host = createToolHost({
  workspace,
  profile: 'advanced',
  catalog: [
    {
      name: 'github_create_issue',
      description: 'Create a GitHub issue in a repository.',
      inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
      handler: (args) => `Created issue "${String(args.title)}" as #1`,
    },
  ],
});

async function show(name: string, args: unknown): Promise<void> {
  const result = await host.call(name, args);
  console.log(`\n▶ ${name} ${JSON.stringify(args)}`);
  console.log(`  ok: ${result.ok}${result.error ? `  error: ${result.error.code}` : ''}`);
  console.log(result.output.replace(/^/gm, '  │ '));
}

try {
  console.log(`workspace: ${workspace}`);
  console.log(`tools: ${host.tools.map((tool) => tool.name).join(', ')}`);
  await show('exec_command', { cmd: 'cat greeting.txt && echo "shell: $0"' });
  await show('apply_patch', { input: '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello world\n+hello toolhost\n*** End Patch' });
  await show('exec_command', { cmd: 'cat greeting.txt' });
  await show('search_tools', { query: 'create github issue' });
  host.nextSegment();
  console.log(`\ntools after nextSegment(): ${host.tools.map((tool) => tool.name).join(', ')}`);
  await show('github_create_issue', { title: 'Tool host works' });
  await show('code_search', { query: 'toolhost' });
  await show('exec_command', { cmd: 'echo hi', max_output_tokens: 0 });
  await show('unified_exec', { cmd: 'ls' });
} finally {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
}
