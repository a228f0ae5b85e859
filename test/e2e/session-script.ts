// The scripted 5-call session every e2e loop runs, against the real host in a temp folder and against the fake host.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { createFakeToolHost, type FakeCommand, type FakeToolHost } from '@toolhost/testing';
import { createToolHost, type ToolHost } from 'toolhost';
import catalog from '../../packages/mcp/src/__fixtures__/catalog.js';

export { catalog };

/** One tool call of the session; `step` groups calls the model makes in one response. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
}

/** Initial workspace files. */
export const FILES: Record<string, string> = {
  'greeting.txt': 'hello world\n',
  'src/greet.ts': 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n',
};

const READ_COMMAND = 'read line; echo "got $line"';

/** The fake host's script for the session's commands. */
export const COMMANDS: FakeCommand[] = [
  { match: READ_COMMAND, output: '', stdin: [{ match: 'toolhost', output: 'got toolhost\n', exitCode: 0 }] },
];

/** The session, one call per model step: exec, write_stdin, apply_patch, search_tools, the discovered tool, code_search. */
export const SESSION: ScriptedCall[] = [
  { name: 'exec_command', args: { cmd: READ_COMMAND, yield_time_ms: 500 } },
  { name: 'write_stdin', args: { session_id: 1, chars: 'toolhost\n', yield_time_ms: 10_000 } },
  {
    name: 'apply_patch',
    args: { input: '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello world\n+hello toolhost\n*** End Patch' },
  },
  { name: 'search_tools', args: { query: 'create a github issue' } },
  { name: 'github_create_issue', args: { title: 'e2e' } },
  { name: 'code_search', args: { query: 'greet', result_types: ['definition'] } },
];

/** The host options both hosts share. */
export const HOST_OPTIONS = { profile: 'advanced', shellProfile: 'unix_like' } as const;

/** A real host in a fresh temp folder holding {@link FILES}. */
export function createRealSessionHost(): { host: ToolHost; folder: string; read(path: string): string; dispose(): Promise<void> } {
  const folder = createSessionFolder();
  const host = createToolHost({ workspace: folder, ...HOST_OPTIONS, catalog });
  return {
    host,
    folder,
    read: (path) => readFileSync(join(folder, path), 'utf8'),
    async dispose() {
      await host.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** A temp folder holding {@link FILES}. */
export function createSessionFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-e2e-'));
  for (const [path, content] of Object.entries(FILES)) {
    mkdirSync(dirname(join(folder, path)), { recursive: true });
    writeFileSync(join(folder, path), content);
  }
  return folder;
}

/** The fake host with the same files, catalog and options. */
export function createFakeSessionHost(): FakeToolHost {
  return createFakeToolHost({ ...HOST_OPTIONS, files: FILES, commands: COMMANDS, catalog });
}

/** Removes what differs between runs (chunk ids, wall times). */
export function normalizeOutput(output: string): string {
  return output.replace(/^Chunk ID: [0-9a-f]{6}$/m, 'Chunk ID: <id>').replace(/^Wall time: \d+\.\d{4} seconds$/m, 'Wall time: <t>');
}

/** Asserts what the session's six model-visible outputs show. */
export function expectSessionOutputs(outputs: string[]): void {
  expect(outputs).toHaveLength(SESSION.length);
  const [exec, stdin, patch, search, discovered, codeSearch] = outputs.map(normalizeOutput);
  expect(exec).toBe('Chunk ID: <id>\nWall time: <t>\nProcess running with session ID 1\nOriginal token count: 0\nOutput:\n');
  expect(stdin).toBe('Chunk ID: <id>\nWall time: <t>\nProcess exited with code 0\nOriginal token count: 4\nOutput:\ngot toolhost\n');
  expect(patch).toBe('Success. Updated the following files:\nM greeting.txt\n');
  expect(search).toContain('github_create_issue: Create a GitHub issue in a repository.');
  expect(search.split('\n').at(-1)).toContain('github_create_issue');
  expect(discovered).toBe('Created issue "e2e" as #1');
  expect(codeSearch).toContain('src/greet.ts:1');
  expect(codeSearch).toMatch(/definition/);
}
