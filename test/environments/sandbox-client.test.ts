import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { run, setTracingDisabled } from '@openai/agents';
import { Manifest, SandboxAgent } from '@openai/agents/sandbox';
import { createToolHostSandboxClient, type ToolHostSandboxSession } from '@toolhost/openai-agents';
import { createSshEnvironment } from '@toolhost/ssh';
import { applyPatchCall, functionCall, scriptedModel } from '../../packages/openai-agents/src/__fixtures__/scripted-model.js';
import { ENGINES, needsEngine, sshSettings, type PreparedEngine } from './engines.js';

// An Agents SDK sandbox agent on every engine through the toolhost sandbox client: the same scripted run, the same
// answers, and nothing left running afterwards. Missing engines are reported by conformance.test.ts (and fail CI there).
setTracingDisabled(true);
const availability = await Promise.all(ENGINES.map(async (engine) => ({ engine, reason: await engine.unavailable() })));

/** Counts the live processes running `sleep 424…` where the engine runs commands (the pattern is split so the probe never matches itself). */
const COUNT_SLEEPS = `n=0; for p in /proc/[0-9]*; do c=$(tr '\\0' ' ' < "$p/cmdline" 2>/dev/null); case "$c" in *"sleep 42""4"*) n=$((n+1));; esac; done; echo "count=$n"`;

for (const { engine, reason } of availability) {
  describe(`sandbox agent on the ${engine.name} environment`, needsEngine(engine.name, reason), () => {
    let prepared: PreparedEngine;
    beforeAll(async () => {
      prepared = await engine.prepare();
    }, 60_000);
    afterAll(async () => {
      await prepared?.cleanup();
    }, 60_000);

    test('apply_patch, exec_command and write_stdin run there; the runner closes the session and its processes', async () => {
      const client = createToolHostSandboxClient({ environment: () => prepared.environment(), host: { shellProfile: 'unix_like' } });
      let session: ToolHostSandboxSession | undefined;
      const { model, answers } = scriptedModel([
        // As the Agents SDK creates files: the lines joined by LF, a final line ending only from a last bare "+" line.
        applyPatchCall('call_1', { type: 'create_file', path: 'src/greeting.txt', diff: '+hello\n+' }),
        functionCall('call_2', 'exec_command', { cmd: 'cat src/greeting.txt notes.txt; echo "$GREETER"' }),
        functionCall('call_3', 'exec_command', { cmd: 'sleep 4243 & read line; echo "got $line"', yield_time_ms: 300 }),
        functionCall('call_4', 'write_stdin', { session_id: 1000, chars: 'x\n', yield_time_ms: 5_000 }),
        functionCall('call_5', 'exec_command', { cmd: 'exec sleep 4244', yield_time_ms: 300 }),
        functionCall('call_6', 'exec_command', { cmd: COUNT_SLEEPS }),
      ]);
      const agent = new SandboxAgent({
        name: 'sandboxed',
        model,
        defaultManifest: new Manifest({
          entries: { 'notes.txt': { type: 'file', content: 'from the manifest\n' } },
          environment: { GREETER: engine.name },
        }),
      });
      const result = await run(agent, 'Go.', {
        sandbox: {
          client: {
            backendId: client.backendId,
            create: async (...args: Parameters<typeof client.create>) => (session = await client.create(...args)),
          },
        },
        maxTurns: 8,
      });
      expect(result.finalOutput).toBe('done');
      // Podman is reached through the Docker environment, over its Docker-compatible API.
      expect(session?.state.environmentKind).toBe(engine.name === 'podman' ? 'docker' : engine.name);
      expect(answers[0]).toMatchObject({ type: 'apply_patch_call_output', status: 'completed' });
      expect(answers[1]?.text).toMatch(/Process exited with code 0\n[\s\S]*Output:\nhello\nfrom the manifest\n/);
      expect(answers[1]?.text.endsWith(`\n${engine.name}\n`)).toBe(true);
      const running = /Process running with session ID (\d+)/.exec(answers[2]?.text ?? '');
      expect(running).not.toBeNull();
      // The scripted write_stdin guessed session 1000: an error value for the model, not an exception.
      expect(answers[3]?.text).toMatch(/^Error \[unknown_session\]/);
      expect(answers[4]?.text).toContain('Process running with session ID');
      // While the session lives, the background sleep of call_3 and the sleep of call_5 run (with the shell that
      // started the second, whose command line names it too, where the engine wraps commands).
      expect(Number(/count=(\d+)/.exec(answers[5]?.text ?? '')?.[1])).toBeGreaterThanOrEqual(2);
      expect(await session!.running()).toBe(false);
      const left = await prepared.probe(COUNT_SLEEPS);
      expect(left.output).toContain('count=0');
      expect((await prepared.probe('cat src/greeting.txt')).output).toBe('hello\n');
    }, 60_000);
  });
}

const sshMissing = availability.find(({ engine }) => engine.name === 'ssh')!.reason;

describe('sandbox client on an SSH host whose key is not trusted', needsEngine('ssh', sshMissing), () => {
  test("create() rejects with createSshEnvironment's host key refusal, before any manifest entry is written", async () => {
    const { knownHosts, ...settings } = sshSettings()!;
    const onlyOtherHosts = readFileSync(knownHosts, 'utf8').replaceAll(`[${settings.host}]:${settings.port} `, 'build-7.internal ');
    const client = createToolHostSandboxClient({ environment: () => createSshEnvironment({ ...settings, knownHosts: onlyOtherHosts }) });
    await expect(client.create(new Manifest({ entries: { 'notes.txt': { type: 'file', content: 'x\n' } } }))).rejects.toMatchObject({
      name: 'ToolHostError',
      code: 'host_key_unknown',
      message: expect.stringContaining(
        `The SSH host ${settings.host} port ${settings.port} is not known: it offered ssh-ed25519 key SHA256:`,
      ),
    });
  });
});
