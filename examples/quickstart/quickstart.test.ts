// Runs the README demo (`npm run demo`) in a child process and checks what it prints.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');

it('shows each tool working, then a preflight error and a legacy-name error', { timeout: 120_000 }, () => {
  const run = spawnSync(process.execPath, ['--conditions=@toolhost/source', '--import', 'tsx', join(here, 'index.ts')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 110_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const out = run.stdout;
  expect(out).toContain('tools: exec_command, write_stdin, apply_patch, search_tools, code_search\n');
  expect(out).toMatch(
    /▶ exec_command \{"cmd":"cat greeting.txt && echo \\"shell: \$0\\""\}\n {2}ok: true\n {2}│ Chunk ID: [0-9a-f]{6}\n {2}│ Wall time: \d+\.\d{4} seconds\n {2}│ Process exited with code 0\n/,
  );
  expect(out).toContain('  │ hello world\n  │ shell: ');
  expect(out).toContain('  │ Success. Updated the following files:\n  │ M greeting.txt\n');
  expect(out).toContain('  │ hello toolhost\n');
  expect(out).toMatch(
    /▶ search_tools \{"query":"create github issue"\}\n {2}ok: true\n {2}│ github_create_issue: Create a GitHub issue in a repository\.\n/,
  );
  expect(out).toContain(
    'tools after nextSegment(): exec_command, write_stdin, apply_patch, search_tools, code_search, github_create_issue\n',
  );
  expect(out).toContain('  │ Created issue "Tool host works" as #1\n');
  expect(out).toMatch(/▶ code_search \{"query":"toolhost"\}\n {2}ok: true\n[\s\S]*greeting\.txt:1/);
  expect(out).toContain(
    '  ok: false  error: invalid_arguments\n  │ Error [invalid_arguments]: max_output_tokens must be an integer between 1 and 50000\n',
  );
  expect(out).toContain('  ok: false  error: legacy_tool\n  │ Error [legacy_tool]: unified_exec');
});
