// Per-call overhead of exec_command({cmd:'true'}) against a bare spawn of the same shell, pipes and PTY.
// Calls are interleaved (baseline, tool, baseline, tool, …) so machine load hits both sides alike; medians are reported.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as pty from 'node-pty';
import { gptTokenizer, type ToolContext } from '@toolhost/core';
import { createFileSpool, createNodeWorkspace } from '@toolhost/core/node';
import { createExecTools, type ExecTools } from '@toolhost/exec';
import { createToolHost } from 'toolhost';

const ROUNDS = Number(process.env.EXEC_BENCH_ROUNDS ?? 60);
const WARMUP = 5;

function bareSpawn(shell: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(shell, ['-c', 'true'], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

function barePty(shell: string): Promise<void> {
  return new Promise((resolve) => {
    const terminal = pty.spawn(shell, ['-c', 'true'], { name: 'xterm-256color', cols: 80, rows: 24, cwd: process.cwd(), env: process.env });
    terminal.onExit(() => resolve());
  });
}

async function timeOnce(run: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await run();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Interleaves baseline and candidate; returns both medians in ms. */
async function compare(baseline: () => Promise<unknown>, candidate: () => Promise<unknown>): Promise<{ base: number; tool: number }> {
  for (let i = 0; i < WARMUP; i++) {
    await baseline();
    await candidate();
  }
  const base: number[] = [];
  const tool: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    base.push(await timeOnce(baseline));
    tool.push(await timeOnce(candidate));
  }
  return { base: median(base), tool: median(tool) };
}

export default async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'toolhost-exec-bench-'));
  const spoolDir = mkdtempSync(join(tmpdir(), 'toolhost-exec-bench-spool-'));
  const workspace = createNodeWorkspace(root);
  const spool = createFileSpool(spoolDir);
  const abort = new AbortController();
  const context: ToolContext = { workspace, spool, tokenizer: gptTokenizer, maxOutputTokens: 10_000, shell: 'unix_like', signal: abort.signal };
  const userShell = process.env.SHELL || '/bin/sh';
  const toolsSh = createExecTools({ env: { SHELL: '/bin/sh' } });
  const toolsUser = createExecTools();
  const call = (tools: ExecTools, tty: boolean) => async () => {
    const result = await tools.execCommand.execute(tools.execCommand.schema.parse({ cmd: 'true', tty }), context);
    if (result.data?.exit_code !== 0) throw new Error(`exec_command failed: ${result.output}`);
  };
  const host = createToolHost({ workspace: root });
  const hostCall = async () => {
    const result = await host.call('exec_command', { cmd: 'true' });
    if (result.data?.exit_code !== 0) throw new Error(`host.call failed: ${result.output}`);
  };

  const rows: Array<{ case: string; baseline: string; 'baseline ms': string; 'exec_command ms': string; ratio: string }> = [];
  const add = (name: string, baselineName: string, measured: { base: number; tool: number }) =>
    rows.push({
      case: name,
      baseline: baselineName,
      'baseline ms': measured.base.toFixed(2),
      'exec_command ms': measured.tool.toFixed(2),
      ratio: (measured.tool / measured.base).toFixed(2),
    });

  try {
    add('pipe, SHELL=/bin/sh', "spawn('sh',['-c','true'])", await compare(() => bareSpawn('sh'), call(toolsSh, false)));
    add(`pipe, SHELL=${userShell}`, `spawn('${userShell}',['-c','true'])`, await compare(() => bareSpawn(userShell), call(toolsUser, false)));
    add(`pipe via createToolHost, SHELL=${userShell}`, `spawn('${userShell}',['-c','true'])`, await compare(() => bareSpawn(userShell), hostCall));
    add('pty, SHELL=/bin/sh', "pty.spawn('sh',['-c','true'])", await compare(() => barePty('sh'), call(toolsSh, true)));
    add(`pty, SHELL=${userShell}`, `pty.spawn('${userShell}',['-c','true'])`, await compare(() => barePty(userShell), call(toolsUser, true)));
  } finally {
    abort.abort();
    await Promise.all([toolsSh.close(), toolsUser.close(), host.close()]);
    await spool.dispose();
    rmSync(root, { recursive: true, force: true });
    rmSync(spoolDir, { recursive: true, force: true });
  }
  console.log(`exec_command({cmd:'true'}) per-call median over ${ROUNDS} interleaved rounds (target: pipe ratio < 1.3)`);
  console.table(rows);
}
