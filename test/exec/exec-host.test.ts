import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { gptTokenizer } from '@toolhost/core';
import { createToolHost, type ToolHost } from 'toolhost';
import { processesWithArguments } from '../helpers/proc-scan.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function host(options: { onOutput?: (sessionId: number, chunk: string) => void } = {}): { host: ToolHost; root: string; spoolDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-exec-host-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'toolhost-exec-host-spool-'));
  const created = createToolHost({ workspace: root, shellProfile: 'unix_like', spoolDir, ...options });
  cleanups.push(
    () => rmSync(root, { recursive: true, force: true }),
    () => rmSync(spoolDir, { recursive: true, force: true }),
    () => created.close(),
  );
  return { host: created, root, spoolDir };
}

test('exec_command and write_stdin through createToolHost', async () => {
  const chunks: string[] = [];
  const { host: h, root } = host({ onOutput: (_id, chunk) => chunks.push(chunk) });
  const hi = await h.call('exec_command', { cmd: 'echo hi; pwd' });
  expect(hi.ok).toBe(true);
  expect(hi.data).toMatchObject({ exit_code: 0 });
  expect(hi.output).toContain(`Output:\nhi\n${root}\n`);
  expect(chunks.join('')).toBe(`hi\n${root}\n`);
  const unknown = await h.call('write_stdin', { session_id: '42', chars: '' });
  expect(unknown.error?.code).toBe('unknown_session');
  const running = await h.call('exec_command', { cmd: 'read line; echo "got $line"', yield_time_ms: 250 });
  const id = running.data?.session_id as number;
  const done = await h.call('write_stdin', { session_id: String(id), chars: 'abc\n', yield_time_ms: 20_000 });
  expect(done.output).toContain('Output:\ngot abc\n');
  expect(done.data?.exit_code).toBe(0);
  const exited = await h.call('write_stdin', { session_id: id, chars: '' });
  expect(exited.error?.code).toBe('session_exited');
});

test('the whole response stays within max_output_tokens through the host, with the spool file named', async () => {
  const { host: h, spoolDir } = host();
  const result = await h.call('exec_command', { cmd: 'seq 1 50000', max_output_tokens: 300 });
  expect(gptTokenizer.count(result.output)).toBeLessThanOrEqual(300);
  const spool = result.data?.spool_path as string;
  expect(spool.startsWith(spoolDir)).toBe(true);
  expect(result.output).toContain(spool);
});

test('host.close() kills running sessions and their children', async () => {
  const { host: h } = host();
  const result = await h.call('exec_command', { cmd: 'sleep 1000.9 & sleep 1000.9', yield_time_ms: 250 });
  expect(result.data?.session_id).toBeTypeOf('number');
  const deadline = Date.now() + 15_000;
  while (processesWithArguments(['sleep', '1000.9']).length < 2 && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  expect(processesWithArguments(['sleep', '1000.9'])).toHaveLength(2);
  await h.close();
  expect(processesWithArguments(['sleep', '1000.9'])).toHaveLength(0);
});
