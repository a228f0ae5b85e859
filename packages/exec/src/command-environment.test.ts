// The shellEnvironment policy reaches real commands, through pipes and through a PTY.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import type { ShellEnvironmentPolicy } from '@toolhost/core';
import { createExecHarness, outputOf, type ExecHarness } from './__fixtures__/exec-harness.js';
import { createExecTools } from './exec-tools.js';
import { SESSION_MARKER_VARIABLE } from './process-tree.js';
import { findExecutable } from './shell-command.js';

const PLANTED = {
  TOOLHOST_ENVTEST_PLAIN: 'plain',
  TOOLHOST_ENVTEST_API_KEY: 'sk-planted',
  toolhost_envtest_token: 'lower-case-token',
  TOOLHOST_ENVTEST_DROP: 'dropped',
  FORCE_COLOR: '3',
};
const previous: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [name, value] of Object.entries(PLANTED)) {
    previous[name] = process.env[name];
    process.env[name] = value;
  }
});
afterAll(() => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

const harnesses: ExecHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
});

/** The variable names a command sees (the shell's own PWD, SHLVL and _ left out), through pipes and a PTY. */
async function namesSeen(
  shellEnvironment?: ShellEnvironmentPolicy,
  env?: Record<string, string>,
): Promise<{ pipe: string[]; pty: string[] }> {
  const harness = createExecHarness({ shellEnvironment, env });
  harnesses.push(harness);
  const cmd = 'env | cut -d= -f1 | grep -v -x -e PWD -e OLDPWD -e SHLVL -e _ | sort';
  const [pipe, pty] = [await harness.exec({ cmd }), await harness.exec({ cmd, tty: true })];
  expect(pipe.data?.exit_code).toBe(0);
  expect(pty.data?.exit_code).toBe(0);
  const names = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  return { pipe: names(outputOf(pipe)), pty: names(outputOf(pty)) };
}

async function valuesSeen(shellEnvironment: ShellEnvironmentPolicy | undefined, names: string[], env?: Record<string, string>) {
  const harness = createExecHarness({ shellEnvironment, env });
  harnesses.push(harness);
  const cmd = `printf '%s|' ${names.map((name) => `"\${${name}-unset}"`).join(' ')}`;
  const [pipe, pty] = [await harness.exec({ cmd }), await harness.exec({ cmd, tty: true })];
  return { pipe: outputOf(pipe).trim(), pty: outputOf(pty).trim() };
}

const ADDED = ['GIT_PAGER', 'NO_COLOR', 'PAGER', 'TERM', SESSION_MARKER_VARIABLE];

describe('shellEnvironment on pipes and PTY', () => {
  test('by default every variable is inherited except credential-like names; NO_COLOR, PAGER, GIT_PAGER and the session marker are set', async () => {
    const seen = await namesSeen();
    for (const backend of [seen.pipe, seen.pty]) {
      expect(backend).toEqual(expect.arrayContaining(['PATH', 'HOME', 'TOOLHOST_ENVTEST_PLAIN', 'TOOLHOST_ENVTEST_DROP', ...ADDED]));
      expect(backend).not.toContain('TOOLHOST_ENVTEST_API_KEY');
      expect(backend).not.toContain('toolhost_envtest_token');
      expect(backend).not.toContain('FORCE_COLOR');
    }
    expect(await valuesSeen(undefined, ['NO_COLOR', 'PAGER', 'GIT_PAGER', 'TERM'])).toEqual({
      pipe: '1|cat|cat|dumb|',
      pty: '1|cat|cat|xterm-256color|',
    });
  });

  test("inherit 'none' passes only what toolhost and set add (and no shell startup file runs)", async () => {
    const seen = await namesSeen({ inherit: 'none', set: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    expect(seen.pipe).toEqual(['PATH', ...ADDED].sort());
    expect(seen.pty).toEqual(seen.pipe);
  });

  test("inherit 'core' keeps PATH and HOME, not the rest", async () => {
    const seen = await namesSeen({ inherit: 'core' });
    for (const backend of [seen.pipe, seen.pty]) {
      expect(backend).toEqual(expect.arrayContaining(['PATH', 'HOME', ...ADDED]));
      expect(backend).not.toContain('TOOLHOST_ENVTEST_PLAIN');
    }
  });

  test('excludeDefaults false passes credential-like names', async () => {
    expect(await valuesSeen({ excludeDefaults: false }, ['TOOLHOST_ENVTEST_API_KEY', 'toolhost_envtest_token'])).toEqual({
      pipe: 'sk-planted|lower-case-token|',
      pty: 'sk-planted|lower-case-token|',
    });
  });

  test('exclude drops the names its globs match', async () => {
    expect(await valuesSeen({ exclude: ['toolhost_envtest_d*'] }, ['TOOLHOST_ENVTEST_DROP', 'TOOLHOST_ENVTEST_PLAIN'])).toEqual({
      pipe: 'unset|plain|',
      pty: 'unset|plain|',
    });
  });

  test('includeOnly keeps only the names its globs match, plus what toolhost adds', async () => {
    const seen = await namesSeen({ includeOnly: ['PATH', 'TOOLHOST_ENVTEST_P*'] });
    expect(seen.pipe).toEqual(['PATH', 'TOOLHOST_ENVTEST_PLAIN', ...ADDED].sort());
    expect(seen.pty).toEqual(seen.pipe);
  });

  test('set is added last: it overrides inherited values and the defaults, TERM included; env still adds', async () => {
    const values = await valuesSeen(
      { set: { TOOLHOST_ENVTEST_PLAIN: 'over', PAGER: 'more', TERM: 'vt100' } },
      ['TOOLHOST_ENVTEST_PLAIN', 'PAGER', 'TERM', 'EXTRA'],
      {
        EXTRA: 'extra',
        PAGER: 'less',
      },
    );
    expect(values).toEqual({ pipe: 'over|more|vt100|extra|', pty: 'over|more|vt100|extra|' });
  });

  test('a bad policy is a caller mistake', () => {
    expect(() => createExecTools({ shellEnvironment: { inherit: 'most' as never } })).toThrow(
      expect.objectContaining({ code: 'invalid_options' }),
    );
  });
});

describe('SHLVL and ~/.bashrc', () => {
  const bash = findExecutable('bash');
  const home = mkdtempSync(join(tmpdir(), 'toolhost-bashrc-home-'));
  const marker = join(home, 'bashrc-ran');
  writeFileSync(join(home, '.bashrc'), `echo ran >> ${JSON.stringify(marker)}\n`);
  const hostLevel = process.env.SHLVL;
  afterEach(() => {
    if (hostLevel === undefined) delete process.env.SHLVL;
    else process.env.SHLVL = hostLevel;
    rmSync(marker, { force: true });
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  /** `echo hi` and the SHLVL bash reports, through pipes and a PTY, from a host started with SHLVL `level`. */
  async function runWithHostLevel(level: string | undefined) {
    if (level === undefined) delete process.env.SHLVL;
    else process.env.SHLVL = level;
    const harness = createExecHarness({ env: { HOME: home, SHELL: bash! } });
    harnesses.push(harness);
    const cmd = 'echo "hi $SHLVL"';
    const [pipe, pty] = [await harness.exec({ cmd }), await harness.exec({ cmd, tty: true })];
    expect(pipe.data?.exit_code).toBe(0);
    expect(pty.data?.exit_code).toBe(0);
    return { pipe: outputOf(pipe).trim(), pty: outputOf(pty).trim() };
  }

  test('bash run from pipes with a junk SHLVL reads the fake ~/.bashrc (so the checks below can see it)', () => {
    expect(bash).toBeDefined();
    const ran = spawnSync(bash!, ['-c', 'true'], { env: { HOME: home, PATH: process.env.PATH, SHLVL: 'x' }, stdio: 'pipe' });
    expect(ran.status).toBe(0);
    expect(existsSync(marker)).toBe(true);
  });

  test.each([undefined, 'x', '-1', '0', '', '999'])(
    'a host started with SHLVL %j: commands start at level 1 and bash never reads ~/.bashrc',
    async (level) => {
      expect(await runWithHostLevel(level)).toEqual({ pipe: 'hi 2', pty: 'hi 2' });
      expect(existsSync(marker)).toBe(false);
    },
  );

  test('a host started with a valid SHLVL passes it on as it is', async () => {
    expect(await runWithHostLevel('3')).toEqual({ pipe: 'hi 4', pty: 'hi 4' });
    expect(existsSync(marker)).toBe(false);
  });

  test('a junk SHLVL from the policy counts as missing too', async () => {
    const harness = createExecHarness({ env: { HOME: home, SHELL: bash! }, shellEnvironment: { set: { SHLVL: 'x' } } });
    harnesses.push(harness);
    const result = await harness.exec({ cmd: 'echo "hi $SHLVL"' });
    expect(outputOf(result)).toBe('hi 2\n');
    expect(existsSync(marker)).toBe(false);
  });
});
