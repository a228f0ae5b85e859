// Anti-blind-editing gate, driven through the real runtime with the real apply_patch over a memory workspace, then
// through a real host running real commands.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as z from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import {
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  errorResult,
  maxOutputTokensSchema,
  okResult,
  type ToolImplementation,
  type ToolResult,
} from '@toolhost/core';
import { createApplyPatchTool, PathLocks } from '@toolhost/patch';
import { resolveShellProfile, type VerificationGateOptions } from '@toolhost/profiles';
import { createToolRuntime } from '@toolhost/runtime';
import { createToolHost, type ToolHost } from 'toolhost';

/** A scripted command: exits with a code, or keeps running (`running`) until a write_stdin gives it one. */
type Script = { exit: number } | { running: true };

function scriptedExec(script: (cmd: string) => Script) {
  const sessions = new Map<number, string>();
  let nextSession = 1;
  const execCommand: ToolImplementation = {
    name: 'exec_command',
    schema: z.strictObject({ cmd: z.string(), max_output_tokens: maxOutputTokensSchema }),
    async execute(args): Promise<ToolResult> {
      const cmd = String(args.cmd);
      const outcome = script(cmd);
      if ('running' in outcome) {
        const id = nextSession++;
        sessions.set(id, cmd);
        return okResult(`Process running with session ID ${id}`, { session_id: id, wall_time_ms: 1 });
      }
      return okResult(`Process exited with code ${outcome.exit}`, { exit_code: outcome.exit, wall_time_ms: 1 });
    },
  };
  const writeStdin: ToolImplementation = {
    name: 'write_stdin',
    schema: z.strictObject({ session_id: z.int(), chars: z.string(), max_output_tokens: maxOutputTokensSchema }),
    async execute(args): Promise<ToolResult> {
      const id = Number(args.session_id);
      if (!sessions.has(id)) return errorResult('unknown_session', `no session ${id}`);
      // The scripted session exits with the code written to it ("" keeps it running).
      const chars = String(args.chars);
      if (chars === '') return okResult(`Process running with session ID ${id}`, { session_id: id, wall_time_ms: 1 });
      sessions.delete(id);
      return okResult(`Process exited with code ${chars}`, { session_id: id, exit_code: Number(chars), wall_time_ms: 1 });
    },
  };
  return { execCommand, writeStdin };
}

function setup(
  verification?: VerificationGateOptions,
  script: (cmd: string) => Script = (cmd) => ({ exit: cmd.includes('fail') ? 1 : 0 }),
) {
  const workspace = createMemoryWorkspace({ 'src/a.ts': 'export const a = 0;\n' });
  const exec = scriptedExec(script);
  const runtime = createToolRuntime({
    profile: 'default',
    guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
    workspace,
    spool: createMemorySpool(),
    tokenizer: approximateTokenizer,
    implementations: {
      exec_command: exec.execCommand,
      write_stdin: exec.writeStdin,
      apply_patch: createApplyPatchTool({ locks: new PathLocks() }),
    },
    verification,
  });
  let value = 0;
  /** An effective edit: bumps the constant. */
  const edit = () => {
    const patch = `*** Begin Patch\n*** Update File: src/a.ts\n-export const a = ${value};\n+export const a = ${value + 1};\n*** End Patch`;
    return runtime.call('apply_patch', { input: patch }).then((result) => {
      if (result.ok) value += 1;
      return result;
    });
  };
  return { runtime, workspace, edit, current: () => value };
}

async function editTimes(edit: () => Promise<ToolResult>, times: number) {
  for (let i = 0; i < times; i++) expect((await edit()).ok).toBe(true);
}

describe('anti-blind-editing gate with the real apply_patch', () => {
  it('allows 4 effective edits, then blocks the 5th and tells the model what to run', async () => {
    const { runtime, workspace, edit } = setup();
    await editTimes(edit, 4);
    expect(runtime.gate.mutationsSinceVerification).toBe(4);
    const blocked = await edit();
    expect(blocked.ok).toBe(false);
    expect(blocked.error?.code).toBe('verification_required');
    expect(blocked.output).toBe(
      "Error [verification_required]: 4 edits were made without running any check. Run the project's tests, build, lint or typecheck with exec_command (for example `npm test`, `cargo test`, `pytest`), or, where there are none, a syntax check of an edited file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
    expect(blocked.data).toEqual({ mutations_since_verification: 4, threshold: 4 });
    // The blocked patch wrote nothing.
    expect(workspace.snapshot()['src/a.ts']).toBe('export const a = 4;\n');
  });

  it('a verification command that exits 0 unblocks editing', async () => {
    const { runtime, edit } = setup();
    await editTimes(edit, 4);
    expect((await runtime.call('exec_command', { cmd: 'npm test' })).ok).toBe(true);
    expect(runtime.gate.mutationsSinceVerification).toBe(0);
    await editTimes(edit, 4);
    expect((await edit()).error?.code).toBe('verification_required');
  });

  it('a failing verification unblocks editing too: the model has seen the result', async () => {
    const { runtime, edit } = setup();
    await editTimes(edit, 4);
    expect((await runtime.call('exec_command', { cmd: 'npm test -- fail' })).data?.exit_code).toBe(1);
    expect(runtime.gate.mutationsSinceVerification).toBe(0);
    await editTimes(edit, 4);
    const blocked = await edit();
    expect(blocked.output).toBe(
      "Error [verification_required]: 4 edits were made since the project's checks failed: `npm test -- fail` exited with code 1. Run it again with exec_command to see whether the edits fixed it (or another test, build, lint, typecheck or syntax check); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
    expect(blocked.data).toEqual({
      mutations_since_verification: 4,
      threshold: 4,
      last_verification: { cmd: 'npm test -- fail', exit_code: 1 },
    });
  });

  it('a command that is not verification clears nothing', async () => {
    const { runtime, edit } = setup();
    await editTimes(edit, 4);
    await runtime.call('exec_command', { cmd: 'ls -la && cat src/a.ts' });
    await runtime.call('exec_command', { cmd: 'npm test | tail -5' });
    expect((await edit()).error?.code).toBe('verification_required');
  });

  // An agent's loop on a SWE-bench style task: reproduce the bug, edit, rerun the reproduction, edit, run the tests.
  it('a realistic edit / reproduce / edit / test loop is never refused', async () => {
    const { runtime, edit } = setup(undefined, (cmd) => ({ exit: cmd.includes('reproduce') && !cmd.includes('fixed') ? 1 : 0 }));
    const steps: (number | string)[] = [
      'cd /testbed && grep -rn "def save" src/',
      'python reproduce.py',
      2,
      'cat src/a.ts',
      'python reproduce.py',
      3,
      'python -m pytest tests/test_models.py -v',
      1,
      'python3 -m pytest tests/test_models.py::test_save -vv -x',
      4,
      'python reproduce_fixed.py',
      2,
      'go test -v ./...',
      1,
      './run_tests.sh',
      3,
      'node scripts/repro.js',
      2,
      'bash run.sh',
      1,
      'cargo test -- --nocapture',
      4,
      'npx tsx scripts/repro.ts',
      4,
    ];
    for (const step of steps) {
      if (typeof step === 'number') await editTimes(edit, step);
      else expect((await runtime.call('exec_command', { cmd: step })).ok).toBe(true);
    }
    expect(runtime.gate.mutationsSinceVerification).toBe(4);
  });

  it('a blind loop that only reads, asks versions or hides exit codes is refused at the fifth edit', async () => {
    const { runtime, edit } = setup();
    const looks = [
      'cat src/a.ts',
      'python --version',
      'grep -rn save src/',
      'python reproduce.py | tail -20',
      'node -v',
      'pytest -v || true',
    ];
    await editTimes(edit, 1);
    for (const cmd of looks.slice(0, 3)) await runtime.call('exec_command', { cmd });
    await editTimes(edit, 3);
    for (const cmd of looks.slice(3)) await runtime.call('exec_command', { cmd });
    const blocked = await edit();
    expect(blocked.error?.code).toBe('verification_required');
    expect(blocked.data).toEqual({ mutations_since_verification: 4, threshold: 4 });
    await runtime.call('exec_command', { cmd: 'python reproduce.py' });
    expect((await edit()).ok).toBe(true);
  });

  it('a syntax check of an edited file unblocks editing', async () => {
    const { runtime, edit } = setup();
    await editTimes(edit, 4);
    await runtime.call('exec_command', { cmd: 'node --check src/a.js' });
    expect((await edit()).ok).toBe(true);
  });

  it('no-op and failed patches do not count', async () => {
    const { runtime, edit } = setup();
    const noop = await runtime.call('apply_patch', {
      input: '*** Begin Patch\n*** Update File: src/a.ts\n-export const a = 0;\n+export const a = 0;\n*** End Patch',
    });
    expect(noop.ok).toBe(true);
    expect((noop.data?.diff as { is_empty: boolean }[])[0].is_empty).toBe(true);
    const failed = await runtime.call('apply_patch', {
      input: '*** Begin Patch\n*** Update File: src/a.ts\n-nothing like this\n+x\n*** End Patch',
    });
    expect(failed.error?.code).toBe('patch_context_not_found');
    const unparsable = await runtime.call('apply_patch', { input: 'not a patch' });
    expect(unparsable.error?.code).toBe('patch_parse_error');
    expect(runtime.gate.mutationsSinceVerification).toBe(0);
    await editTimes(edit, 4);
    expect((await edit()).error?.code).toBe('verification_required');
  });

  it('a verification still running clears nothing; its session exiting 0 through write_stdin does', async () => {
    const { runtime, edit } = setup(undefined, (cmd) => (cmd.startsWith('npx vitest') ? { running: true } : { exit: 0 }));
    await editTimes(edit, 4);
    const running = await runtime.call('exec_command', { cmd: 'npx vitest --watch' });
    expect(running.data?.session_id).toBe(1);
    expect((await edit()).error?.code).toBe('verification_required');
    await runtime.call('write_stdin', { session_id: 1, chars: '' });
    expect((await edit()).error?.code).toBe('verification_required');
    await runtime.call('write_stdin', { session_id: 1, chars: '0' });
    expect(runtime.gate.mutationsSinceVerification).toBe(0);
    expect((await edit()).ok).toBe(true);
  });

  it('a running verification is named in the refusal; its session exiting non-zero unblocks editing', async () => {
    const { runtime, edit } = setup(undefined, (cmd) => (cmd === 'cargo test' ? { running: true } : { exit: 0 }));
    await editTimes(edit, 4);
    await runtime.call('exec_command', { cmd: 'cargo test' });
    expect((await edit()).output).toBe(
      'Error [verification_required]: 4 edits were made without running any check. `cargo test` is still running in session 1: poll it with write_stdin until it exits; editing resumes as soon as it completes, passing or failing. Reads and inspection commands stay allowed.',
    );
    await runtime.call('write_stdin', { session_id: 1, chars: '101' });
    expect(runtime.gate.lastVerification).toEqual({ cmd: 'cargo test', exitCode: 101 });
    expect((await edit()).ok).toBe(true);
  });

  it('write_stdin exiting 0 on a session that is not a verification clears nothing', async () => {
    const { runtime, edit } = setup(undefined, (cmd) => (cmd === 'python3' ? { running: true } : { exit: 0 }));
    await editTimes(edit, 4);
    await runtime.call('exec_command', { cmd: 'python3' });
    await runtime.call('write_stdin', { session_id: 1, chars: '0' });
    expect((await edit()).error?.code).toBe('verification_required');
  });

  it('honours a configured threshold and classifier', async () => {
    const { runtime, edit } = setup({ threshold: 2, isVerification: (cmd) => cmd === 'just check' });
    await editTimes(edit, 2);
    expect((await edit()).error?.code).toBe('verification_required');
    await runtime.call('exec_command', { cmd: 'npm test' });
    expect((await edit()).error?.code).toBe('verification_required');
    await runtime.call('exec_command', { cmd: 'just check' });
    expect((await edit()).ok).toBe(true);
  });

  it('concurrent edits cannot slip past the threshold together', async () => {
    const { runtime, workspace, edit } = setup();
    await editTimes(edit, 3);
    const other = (name: string) =>
      runtime.call('apply_patch', { input: `*** Begin Patch\n*** Add File: src/${name}.ts\n+export const ${name} = 1;\n*** End Patch` });
    const results = await Promise.all([other('b'), other('c')]);
    expect(results.map((result) => result.ok).sort()).toEqual([false, true]);
    expect(results.find((result) => !result.ok)?.error?.code).toBe('verification_required');
    expect(runtime.gate.mutationsSinceVerification).toBe(4);
    expect(Object.keys(workspace.snapshot())).toHaveLength(2);
  });

  it('an infinite threshold turns the gate off', async () => {
    const { edit } = setup({ threshold: Infinity });
    await editTimes(edit, 8);
  });

  it('only mutating tools are blocked: reads and inspection stay allowed', async () => {
    const { runtime, edit } = setup();
    await editTimes(edit, 4);
    expect((await runtime.call('exec_command', { cmd: 'cat src/a.ts' })).ok).toBe(true);
    expect((await runtime.call('search_tools', { query: 'anything' })).error?.code).not.toBe('verification_required');
  });
});

describe('anti-blind-editing gate on a real host: a failing check never strands the agent', () => {
  const folders: string[] = [];
  const hosts: ToolHost[] = [];
  afterEach(async () => {
    await Promise.all(hosts.splice(0).map((host) => host.close()));
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  });

  /** A host on a fresh workspace; npm keeps its cache and logs in a fresh folder of its own. */
  function realHost(files: Record<string, string>) {
    const workspace = mkdtempSync(join(tmpdir(), 'toolhost-gate-'));
    const npmCache = mkdtempSync(join(tmpdir(), 'toolhost-gate-npm-'));
    folders.push(workspace, npmCache);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(workspace, path)), { recursive: true });
      writeFileSync(join(workspace, path), text);
    }
    const host = createToolHost({
      workspace,
      shellProfile: 'unix_like',
      tokenizer: approximateTokenizer,
      shellEnvironment: { set: { npm_config_cache: npmCache, npm_config_update_notifier: 'false' } },
    });
    hosts.push(host);
    /** Runs a command as an agent would: polls its session until it exits, and returns the exit code. */
    const run = async (cmd: string) => {
      let result = await host.call('exec_command', { cmd, yield_time_ms: 30_000 });
      while (result.ok && typeof result.data?.exit_code !== 'number' && typeof result.data?.session_id === 'number') {
        result = await host.call('write_stdin', { session_id: result.data.session_id, chars: '', yield_time_ms: 30_000 });
      }
      return result.data?.exit_code;
    };
    const setValue = (from: number, to: number) =>
      host.call('apply_patch', {
        input: `*** Begin Patch\n*** Update File: src/value.js\n-exports.value = ${from};\n+exports.value = ${to};\n*** End Patch`,
      });
    return { host, workspace, run, setValue };
  }

  it('npm test fails with exit 1; the agent keeps editing, fixes it and the tests pass', async () => {
    const { workspace, run, setValue } = realHost({
      'package.json': JSON.stringify({ name: 'fixture', private: true, scripts: { test: 'node check.js' } }),
      'check.js':
        "const { value } = require('./src/value.js');\nif (value !== 42) { console.error(`expected 42, got ${value}`); process.exit(1); }\n",
      'src/value.js': 'exports.value = 0;\n',
    });
    for (let step = 0; step < 4; step++) expect((await setValue(step, step + 1)).ok).toBe(true);
    expect((await setValue(4, 5)).error?.code).toBe('verification_required');
    expect(await run('npm test')).toBe(1);
    // The failure is what the agent needed to see: it may edit again to fix it.
    expect((await setValue(4, 41)).ok).toBe(true);
    expect((await setValue(41, 40)).ok).toBe(true);
    expect((await setValue(40, 43)).ok).toBe(true);
    expect((await setValue(43, 44)).ok).toBe(true);
    const blocked = await setValue(44, 42);
    expect(blocked.output).toBe(
      "Error [verification_required]: 4 edits were made since the project's checks failed: `npm test` exited with code 1. Run it again with exec_command to see whether the edits fixed it (or another test, build, lint, typecheck or syntax check); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
    expect(await run('npm test')).toBe(1);
    expect((await setValue(44, 42)).ok).toBe(true);
    expect(await run('npm test')).toBe(0);
    expect(readFileSync(join(workspace, 'src/value.js'), 'utf8')).toBe('exports.value = 42;\n');
    for (let step = 42; step < 46; step++) expect((await setValue(step, step + 1)).ok).toBe(true);
    const afterPass = await setValue(46, 47);
    expect(afterPass.error?.code).toBe('verification_required');
    expect(afterPass.data?.last_verification).toEqual({ cmd: 'npm test', exit_code: 0 });
  });

  it('running a reproduction script of the workspace resets the count, whatever it exits with', async () => {
    const { run, setValue } = realHost({
      'reproduce.js': "const { value } = require('./src/value.js');\nif (value !== 42) process.exit(1);\n",
      'src/value.js': 'exports.value = 0;\n',
    });
    for (let step = 0; step < 4; step++) expect((await setValue(step, step + 1)).ok).toBe(true);
    expect((await setValue(4, 5)).error?.code).toBe('verification_required');
    expect(await run('node reproduce.js')).toBe(1);
    expect((await setValue(4, 42)).ok).toBe(true);
    expect(await run('node reproduce.js')).toBe(0);
  });

  it('in a workspace without package.json, npm test exits non-zero and still resets the count; so does a syntax check', async () => {
    const { run, setValue } = realHost({ 'src/value.js': 'exports.value = 0;\n' });
    for (let step = 0; step < 4; step++) expect((await setValue(step, step + 1)).ok).toBe(true);
    expect((await setValue(4, 5)).error?.code).toBe('verification_required');
    const exitCode = await run('npm test');
    expect(exitCode).toBeTypeOf('number');
    expect(exitCode).not.toBe(0);
    for (let step = 4; step < 8; step++) expect((await setValue(step, step + 1)).ok).toBe(true);
    expect((await setValue(8, 9)).error?.code).toBe('verification_required');
    expect(await run('node --check src/value.js')).toBe(0);
    expect((await setValue(8, 9)).ok).toBe(true);
  });
});
