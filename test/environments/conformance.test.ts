import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { approximateTokenizer, type WorkspaceDurability } from '@toolhost/core';
import { createToolHost, type ToolHost } from 'toolhost';
import { skipWhen } from '../skip-reason.js';
import { ENGINE_SETUP, ENGINES, needsEngine, type PreparedEngine } from './engines.js';

// One suite, every engine: a tool must behave the same on this machine, in a Docker container and on an SSH host.
// An engine that is missing is reported loudly; in CI (CI=true) it fails the run instead of being skipped.
const inCi = process.env.CI === 'true';
const availability = await Promise.all(ENGINES.map(async (engine) => ({ engine, reason: await engine.unavailable() })));
for (const { engine, reason } of availability) {
  if (reason !== undefined) {
    console.warn(
      `\n${'!'.repeat(100)}\n!! environment conformance: ${engine.name} NOT TESTED: ${reason}\n!! run: eval "$(bash test/environments/setup-ci.sh)"\n${'!'.repeat(100)}\n`,
    );
  }
}

test(
  'in CI every engine is available (docker and sshd are set up by test/environments/setup-ci.sh, podman by setup-podman.sh)',
  skipWhen(inCi ? undefined : 'checks the engines only in CI', `${ENGINE_SETUP}, then CI=true npx vitest run test/environments`),
  () => {
    expect(availability.filter((entry) => entry.reason !== undefined).map((entry) => `${entry.engine.name}: ${entry.reason}`)).toEqual([]);
  },
);

const patch = (body: string) => `*** Begin Patch\n${body}\n*** End Patch`;

for (const { engine, reason } of availability) {
  describe(`${engine.name} environment`, needsEngine(engine.name, reason), () => {
    let prepared: PreparedEngine;
    let host: ToolHost;
    beforeAll(async () => {
      prepared = await engine.prepare();
      host = createToolHost({
        environment: await prepared.environment(),
        profile: 'advanced',
        shellProfile: 'unix_like',
        tokenizer: approximateTokenizer,
      });
    }, 60_000);
    afterAll(async () => {
      await host?.close();
      await prepared?.cleanup();
    }, 60_000);
    /** A host over a new environment of the engine (the caller closes it). */
    const hostOfItsOwn = async (durability?: WorkspaceDurability) =>
      createToolHost({ environment: await prepared.environment(durability), shellProfile: 'unix_like', tokenizer: approximateTokenizer });

    test('exec_command: exit code, merged stderr, workdir, environment', async () => {
      const result = await host.call('exec_command', { cmd: 'echo out; echo err >&2; echo "$NO_COLOR $PAGER"; exit 3' });
      expect(result.ok).toBe(true);
      expect(result.data).toMatchObject({ exit_code: 3 });
      expect(result.output).toMatch(/Process exited with code 3\n/);
      // stdout and stderr share the output (locally through two pipes, so their relative order may vary).
      const lines = result.output.slice(result.output.indexOf('Output:\n') + 'Output:\n'.length).split('\n');
      expect(lines.sort()).toEqual(['', '1 cat', 'err', 'out']);
      await host.call('apply_patch', { input: patch('*** Add File: sub/dir/file.txt\n+x') });
      const inDir = await host.call('exec_command', { cmd: 'pwd; ls', workdir: 'sub/dir' });
      expect(inDir.output).toMatch(/\/sub\/dir\nfile\.txt\n$/);
    });

    test('write_stdin on a pipe session and on a TTY session', async () => {
      const pipe = await host.call('exec_command', { cmd: 'read line; echo "got $line"', yield_time_ms: 250 });
      expect(pipe.output).toContain('Process running with session ID');
      const id = (pipe.data as { session_id: number }).session_id;
      const answer = await host.call('write_stdin', { session_id: id, chars: 'hello\n', yield_time_ms: 5_000 });
      expect(answer.output).toMatch(/Process exited with code 0[\s\S]*got hello/);
      const again = await host.call('write_stdin', { session_id: id, chars: '' });
      expect(again.error?.code).toBe('session_exited');

      const tty = await host.call('exec_command', { cmd: 'tty; stty size; cat', tty: true, yield_time_ms: 500 });
      const ttyId = (tty.data as { session_id: number }).session_id;
      // An engine may take longer than the yield to start the command (Podman's exec does): poll as a model would.
      let shown = tty.output;
      for (let poll = 0; poll < 10 && !/24 80/.test(shown); poll++)
        shown += (await host.call('write_stdin', { session_id: ttyId, chars: '', yield_time_ms: 500 })).output;
      expect(shown).toMatch(/\/dev\/pts\/\d+/);
      expect(shown).toMatch(/24 80/);
      const echoed = await host.call('write_stdin', { session_id: ttyId, chars: 'ping\n\u0004', yield_time_ms: 5_000 });
      expect(echoed.output).toMatch(/Process exited with code 0[\s\S]*ping/);
    });

    test('budgets hold and the complete output is spooled on the caller machine', async () => {
      const result = await host.call('exec_command', {
        cmd: 'i=1; while [ $i -le 5000 ]; do echo "line $i"; i=$((i + 1)); done',
        max_output_tokens: 200,
      });
      expect(result.ok).toBe(true);
      expect(approximateTokenizer.count(result.output)).toBeLessThanOrEqual(200);
      expect(result.output).toContain('line 1\n');
      expect(result.output).toContain('line 5000\n');
      const spool = (result.data as { spool_path?: string }).spool_path;
      expect(spool).toBeDefined();
      expect(existsSync(spool!)).toBe(true);
      const expected = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}\n`).join('');
      expect(readFileSync(spool!, 'utf8')).toBe(expected);
    });

    test('output is complete to the last byte on pipes and on a TTY, and a background child holding it does not delay the result', async () => {
      const expected = Array.from({ length: 100_000 }, (_, i) => `${i + 1}\n`).join('');
      for (const tty of [false, true]) {
        const result = await host.call('exec_command', { cmd: 'seq 1 100000; exit 5', tty, max_output_tokens: 100, yield_time_ms: 30_000 });
        expect(result.data).toMatchObject({ exit_code: 5 });
        const spool = readFileSync((result.data as { spool_path: string }).spool_path, 'utf8');
        expect(tty ? spool.replaceAll('\r\n', '\n') : spool).toBe(expected);
        expect(result.output).toMatch(/\n100000\r?\n$/);
      }
      const started = performance.now();
      const detached = await host.call('exec_command', { cmd: 'sleep 20 & echo parent done', yield_time_ms: 15_000 });
      expect(detached.data).toMatchObject({ exit_code: 0 });
      expect(detached.output).toMatch(/Output:\nparent done\n$/);
      expect(performance.now() - started).toBeLessThan(10_000);
    }, 60_000);

    test('apply_patch adds, updates, moves and deletes inside the environment', async () => {
      const added = await host.call('apply_patch', {
        input: patch('*** Add File: notes/a.txt\n+one\n+two\n*** Add File: notes/b.txt\n+gone'),
      });
      expect(added.ok).toBe(true);
      const updated = await host.call('apply_patch', {
        input: patch('*** Update File: notes/a.txt\n*** Move to: notes/c.txt\n@@\n one\n-two\n+three\n*** Delete File: notes/b.txt'),
      });
      expect(updated.ok).toBe(true);
      const listing = await prepared.probe('cat notes/c.txt; ls notes');
      expect(listing.output).toBe('one\nthree\nc.txt\n');
    });

    test("an update writes exactly the file's bytes: BOM, CRLF, UTF-8, no final newline, the kept ranges as they were", async () => {
      const kept = Array.from({ length: 1000 }, (_, index) => `línea ${index}\r\n`).join('');
      const original = Buffer.from(`\uFEFF${kept}middle\r\n${kept}end without newline`, 'utf8');
      const made = await prepared.probe(`mkdir exact && printf '%s' '${original.toString('base64')}' | base64 -d > exact/big.txt`);
      expect(made).toEqual({ exitCode: 0, output: '' });
      // A host of its own, so this edit does not count towards the suite host's edits before verification.
      const editor = await hostOfItsOwn();
      try {
        const updated = await editor.call('apply_patch', {
          input: patch('*** Update File: exact/big.txt\n@@\n-middle\n+centre\n+añadida'),
        });
        expect(updated.ok).toBe(true);
      } finally {
        await editor.close();
      }
      const expected = Buffer.from(`\uFEFF${kept}centre\r\nañadida\r\n${kept}end without newline`, 'utf8');
      const listing = await prepared.probe('base64 exact/big.txt | tr -d "\\n"; echo; ls -a exact');
      expect(listing.output).toBe(`${expected.toString('base64')}\n.\n..\nbig.txt\n`);
    });

    test('with durability process, a multi-file edit commits as by default and leaves nothing of its journal', async () => {
      const unflushed = await hostOfItsOwn('process');
      try {
        const added = await unflushed.call('apply_patch', {
          input: patch('*** Add File: unflushed/a.txt\n+a1\n*** Add File: unflushed/b.txt\n+b1'),
        });
        expect(added.ok).toBe(true);
        const updated = await unflushed.call('apply_patch', {
          input: patch('*** Update File: unflushed/a.txt\n@@\n-a1\n+a2\n*** Update File: unflushed/b.txt\n@@\n-b1\n+b2'),
        });
        expect(updated.ok).toBe(true);
        expect(updated.output).toBe('Success. Updated the following files:\nM unflushed/a.txt\nM unflushed/b.txt\n');
        const listing = await prepared.probe('cat unflushed/a.txt unflushed/b.txt; ls -a unflushed');
        expect(listing.output).toBe('a2\nb2\n.\n..\na.txt\nb.txt\n');
      } finally {
        await unflushed.close();
      }
    });

    test('a failed patch writes nothing', async () => {
      const failed = await host.call('apply_patch', {
        input: patch('*** Add File: atomic/new.txt\n+new\n*** Update File: sub/dir/file.txt\n@@\n-not there\n+y'),
      });
      expect(failed.ok).toBe(false);
      expect(failed.error?.code).toBe('patch_context_not_found');
      const check = await prepared.probe('ls atomic 2>&1; cat sub/dir/file.txt');
      expect(check.output).toMatch(/No such file or directory\nx\n$/);
    });

    test('boundary checks run inside the environment: .., absolute paths, symlinks that lead out', async () => {
      expect((await host.call('apply_patch', { input: patch('*** Add File: ../escape.txt\n+x') })).error?.code).toBe('outside_workspace');
      expect((await host.call('apply_patch', { input: patch('*** Add File: /tmp/escape.txt\n+x') })).error?.code).toBe('outside_workspace');
      await prepared.probe('ln -s /tmp out-link');
      expect((await host.call('apply_patch', { input: patch('*** Add File: out-link/escape.txt\n+x') })).error?.code).toBe(
        'outside_workspace',
      );
      expect((await host.call('exec_command', { cmd: 'pwd', workdir: 'out-link' })).error?.code).toBe('outside_workspace');
      expect((await host.call('exec_command', { cmd: 'pwd', workdir: '..' })).error?.code).toBe('outside_workspace');
      expect((await prepared.probe('ls /tmp/escape.txt 2>&1')).exitCode).not.toBe(0);
      // A name over NAME_MAX cannot exist: a clean answer, never internal_error (SFTP reports it as a bad message).
      const tooLong = 'a'.repeat(256);
      const searched = await host.call('code_search', { query: 'hello', path: tooLong });
      expect(searched.error?.code).not.toBe('internal_error');
      const added = await host.call('apply_patch', { input: patch(`*** Add File: ${tooLong}\n+x`) });
      expect(added.ok).toBe(false);
      expect(added.error?.code).not.toBe('internal_error');
    });

    test('code_search and search_tools answer', async () => {
      await host.call('apply_patch', { input: patch('*** Add File: src/greet.ts\n+export function greetEveryone() {\n+  return 1;\n+}') });
      const found = await host.call('code_search', { query: 'greetEveryone' });
      expect(found.ok).toBe(true);
      expect(found.output).toContain('src/greet.ts:1');
      const tools = await host.call('search_tools', { query: 'anything' });
      expect(tools.ok).toBe(true);
    });

    test('close() leaves no process behind (running sessions, background and setsid children)', async () => {
      const own = createToolHost({ environment: await prepared.environment(), shellProfile: 'unix_like', tokenizer: approximateTokenizer });
      const running = await own.call('exec_command', { cmd: 'sleep 3217', yield_time_ms: 250 });
      expect(running.output).toContain('Process running');
      const escaped = await own.call('exec_command', {
        cmd: 'setsid sleep 3218 >/dev/null 2>&1 & sleep 3219 >/dev/null 2>&1 & echo started',
      });
      expect(escaped.output).toContain('started');
      const before = await prepared.probe('ps -o args 2>/dev/null || ps -eo args');
      expect(before.output).toMatch(/sleep 3219/);
      await own.close();
      const after = await prepared.probe('ps -o args 2>/dev/null || ps -eo args');
      expect(after.output).not.toMatch(/sleep 321[789]/);
    });
  });
}
