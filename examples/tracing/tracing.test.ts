// Runs the tracing example in a child process and checks the spans it prints.
import { spawnSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');

it('prints each turn span and the execute_tool spans under it', { timeout: 60_000 }, () => {
  const run = spawnSync(process.execPath, ['--conditions=@toolhost/source', '--import', 'tsx', join(here, 'index.ts')], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 50_000,
  });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  const names = [...run.stdout.matchAll(/^ {2}name: '([^']+)',$/gm)].map((match) => match[1]);
  expect(names).toEqual([
    'execute_tool exec_command',
    'agent turn 1',
    'execute_tool apply_patch',
    'agent turn 2',
    'execute_tool exec_command',
    'execute_tool exec_command',
    'agent turn 3',
  ]);
  expect(run.stdout).toContain("'gen_ai.tool.call.id': 'call_3'");
  expect(run.stdout).toContain("'toolhost.exit_code': 3");
  expect(run.stdout).toContain("'toolhost.patch.updated': 1");
  expect(run.stdout).not.toContain('hello tracing');
});
