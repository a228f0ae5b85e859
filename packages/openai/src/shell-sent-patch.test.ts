import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createToolHost, okResult, type ToolHost, type ToolResult } from 'toolhost';
import { createAgentsShell } from './agents-shell.js';
import { answerResponsesCalls } from './answer-responses-calls.js';
import { runShellCommands } from './shell-commands.js';

let workspace: string;
let host: ToolHost;
beforeEach(() => {
  // The first entry of the workspace is `touch`: a bare patch run by a shell would expand `***` to `touch x.txt …`
  // and create the files Begin and Patch, so their absence proves nothing ran.
  workspace = mkdtempSync(join(tmpdir(), 'toolhost-openai-patch-'));
  writeFileSync(join(workspace, 'touch'), '');
  writeFileSync(join(workspace, 'x.txt'), 'one\n');
  host = createToolHost({ workspace, shellProfile: 'unix_like' });
});
afterEach(async () => {
  await host.close();
  rmSync(workspace, { recursive: true, force: true });
});

const update = (path: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;
const heredoc = (patch: string) => `apply_patch <<'EOF'\n${patch}\nEOF`;
const argument = (patch: string) => `apply_patch '${patch}'`;
const bare = update('x.txt', 'one', 'never');
const nothingRan = () => {
  expect(existsSync(join(workspace, 'Begin'))).toBe(false);
  expect(existsSync(join(workspace, 'Patch'))).toBe(false);
  expect(readFileSync(join(workspace, 'x.txt'), 'utf8')).not.toContain('never');
};

/** Runs commands through one shell surface: each answer's text, exit code (null for none) and whether it failed. */
type Surface = (commands: string[]) => Promise<Array<{ text: string; exitCode: number | null }>>;

const surfaces: Array<[string, Surface, string]> = [
  [
    'exec_command',
    async (commands) => {
      const answers = [];
      for (const cmd of commands) {
        const result = await host.call('exec_command', { cmd });
        answers.push({ text: result.output, exitCode: typeof result.data?.exit_code === 'number' ? result.data.exit_code : null });
      }
      return answers;
    },
    'exec_command',
  ],
  [
    'shell_call',
    async (commands) => {
      const [output] = await answerResponsesCalls(
        [
          {
            type: 'shell_call',
            id: 'sh',
            call_id: 'call_sh',
            status: 'completed',
            environment: null,
            action: { commands, timeout_ms: null, max_output_length: null },
          },
        ],
        host,
      );
      const entries = (output as { output: Array<{ stdout: string; stderr: string; outcome: { type: string; exit_code?: number } }> })
        .output;
      return entries.map((entry) => ({ text: entry.stdout + entry.stderr, exitCode: entry.outcome.exit_code ?? null }));
    },
    'shell',
  ],
  [
    'Agents SDK shell',
    async (commands) => {
      const { output } = await createAgentsShell(host).run({ commands });
      return output.map((entry) => ({
        text: entry.stdout + entry.stderr,
        exitCode: entry.outcome.type === 'exit' ? entry.outcome.exitCode : null,
      }));
    },
    'shell',
  ],
];

describe.each(surfaces)('a patch sent through %s (Codex invocation rules)', (_name, run, shell) => {
  it('applies the heredoc and the argument form with the patch engine', async () => {
    mkdirSync(join(workspace, 'src'));
    writeFileSync(join(workspace, 'src', 'b.txt'), 'x\n');
    const answers = await run([
      heredoc(update('x.txt', 'one', 'two')),
      argument(update('x.txt', 'two', 'three')),
      `cd src && ${heredoc(update('b.txt', 'x', 'y'))}`,
    ]);
    expect(answers.map((answer) => answer.exitCode)).toEqual([0, 0, 0]);
    expect(answers[0].text).toMatch(
      /^Success\. Updated the following files:\nM x\.txt\nNote: this apply_patch command went to the apply_patch tool, not to a shell\./,
    );
    expect(answers[0].text).toContain(`instead of ${shell}.`);
    expect(readFileSync(join(workspace, 'x.txt'), 'utf8')).toBe('three\n');
    expect(readFileSync(join(workspace, 'src', 'b.txt'), 'utf8')).toBe('y\n');
  });

  it('refuses a bare patch, as the command, its only word or the script of bash -lc, and runs nothing', async () => {
    const answers = await run([bare, `'${bare}'`, `bash -lc '${bare}'`]);
    for (const answer of answers) {
      expect(answer).toEqual({
        text: `Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the apply_patch tool ${shell === 'exec_command' ? 'with this patch' : 'to make this edit'} instead of sending the patch to ${shell}.`,
        exitCode: 1,
      });
    }
    nothingRan();
  });
});

describe('the proof of the bare-patch cases', () => {
  it('a shell given the first line of the patch runs `touch` and creates Begin and Patch', async () => {
    const [answer] = await runShellCommands(host, { commands: ['echo; *** Begin Patch'] });
    expect(answer.outcome).toEqual({ type: 'exit', exit_code: 0 });
    expect(existsSync(join(workspace, 'Begin'))).toBe(true);
  });
});

describe('shell_call at the timeout boundary', () => {
  it('reports a command whose end the last poll before timeout_ms sees with its exit code, not a timeout', async () => {
    // A host whose command ends as its first poll's yield runs out, at the deadline: the poll must not be cancelled.
    const calls: Array<{ name: string; signalled: boolean }> = [];
    const scripted = {
      async call(name: string, args: unknown, options?: { signal?: AbortSignal }): Promise<ToolResult> {
        calls.push({ name, signalled: options?.signal !== undefined });
        if (name === 'exec_command') return okResult('Process running with session ID 7\nOutput:\n', { session_id: 7 });
        const yieldMs = (args as { yield_time_ms: number }).yield_time_ms;
        await new Promise((resolve) => setTimeout(resolve, yieldMs));
        if (options?.signal?.aborted) return okResult('Note: the call was cancelled\nOutput:\n', { exit_code: 137 });
        return okResult('Process exited with code 0\nOutput:\ndone\n', { exit_code: 0 });
      },
    };
    const outcomes = await runShellCommands(scripted as unknown as Pick<ToolHost, 'call'>, {
      commands: ['sleep 0.3; echo done'],
      timeout_ms: 300,
    });
    expect(outcomes).toEqual([{ stdout: 'done\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }]);
    expect(calls).toEqual([
      { name: 'exec_command', signalled: false },
      { name: 'write_stdin', signalled: false },
    ]);
  });

  it('reports a command that ends before timeout_ms on a real host, and runs the next one', async () => {
    const outcomes = await runShellCommands(host, { commands: ['sleep 1; echo done', 'true'], timeout_ms: 1500 });
    expect(outcomes).toEqual([
      { stdout: 'done\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
      { stdout: '', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
    ]);
  });

  it('times out a command still running at timeout_ms and kills it', async () => {
    const [outcome] = await runShellCommands(host, { commands: ['echo begun; sleep 5; echo never > late.txt'], timeout_ms: 600 });
    expect(outcome).toMatchObject({ stdout: expect.stringContaining('begun'), outcome: { type: 'timeout' } });
    expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
  });
});
