// Commands on this machine find rg: the optional @vscode/ripgrep's binary joins PATH after the user's own folders.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, describe, expect, test } from 'vitest';
import { createExecHarness, outputOf, type ExecHarness } from './__fixtures__/exec-harness.js';
import { bundledRipgrepFolder, ripgrepOnPath, withBundledRipgrep } from './bundled-ripgrep.js';
import { findExecutable } from './shell-command.js';

const hostPath = process.env.PATH;
const harnesses: ExecHarness[] = [];
afterEach(async () => {
  await Promise.all(harnesses.splice(0).map((harness) => harness.dispose()));
  if (hostPath === undefined) delete process.env.PATH;
  else process.env.PATH = hostPath;
});

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A fresh folder holding executable shell scripts, by name. */
function scriptFolder(scripts: Record<string, string>): string {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-path-'));
  folders.push(folder);
  for (const [name, body] of Object.entries(scripts)) {
    writeFileSync(join(folder, name), `#!/bin/sh\n${body}\n`);
    chmodSync(join(folder, name), 0o755);
  }
  return folder;
}

/** A harness created while the host process's PATH is `path` (undefined: no PATH at all). */
function hostWithPath(path: string | undefined): ExecHarness {
  if (path === undefined) delete process.env.PATH;
  else process.env.PATH = path;
  const harness = createExecHarness({ env: { SHELL: '/bin/sh' } });
  harnesses.push(harness);
  return harness;
}

/** The system folders, which hold no rg on the machines the tests run on (checked). */
const SYSTEM_PATH = ['/usr/bin', '/bin'].join(delimiter);

describe('the bundled ripgrep on PATH', () => {
  test('@vscode/ripgrep is installed here, and the system folders have no rg of their own', () => {
    const folder = bundledRipgrepFolder();
    expect(folder).toBeDefined();
    expect(existsSync(join(folder!, 'rg'))).toBe(true);
    expect(findExecutable('rg', SYSTEM_PATH)).toBeUndefined();
  });

  test('a host whose PATH has no rg: rg --version exits 0 and the PATH keeps the user folders first', async () => {
    const own = scriptFolder({ 'own-tool': 'echo own tool' });
    const path = [own, SYSTEM_PATH].join(delimiter);
    const harness = hostWithPath(path);
    expect(harness.tools.commandsFindRipgrep).toBe(true);
    const version = await harness.exec({ cmd: 'rg --version' });
    expect(version.data?.exit_code).toBe(0);
    expect(outputOf(version)).toMatch(/^ripgrep \d+\.\d+\.\d+/);
    const seen = await harness.exec({ cmd: 'own-tool; printf "%s" "$PATH"' });
    expect(outputOf(seen)).toBe(`own tool\n${path}${delimiter}${bundledRipgrepFolder()}`);
    for (const tty of [false, true]) {
      const searched = await harness.exec({ cmd: 'printf "needle\\n" > found.txt && rg -n --no-heading needle . && rg --files', tty });
      expect(searched.data?.exit_code).toBe(0);
      expect(outputOf(searched).trim().split(/\r?\n/)).toEqual(['./found.txt:1:needle', 'found.txt']);
    }
  });

  test('a host with an empty PATH gets the bundled folder alone', async () => {
    const harness = hostWithPath('');
    expect(harness.tools.commandsFindRipgrep).toBe(true);
    const version = await harness.exec({ cmd: 'rg --version' });
    expect(version.data?.exit_code).toBe(0);
    expect(outputOf(version)).toMatch(/^ripgrep /);
  });

  test("the user's own rg wins: PATH is left as it is", async () => {
    const own = scriptFolder({ rg: 'echo "own rg $*"' });
    const path = [own, SYSTEM_PATH].join(delimiter);
    const harness = hostWithPath(path);
    expect(harness.tools.commandsFindRipgrep).toBe(true);
    const result = await harness.exec({ cmd: 'rg --version; printf "%s" "$PATH"' });
    expect(outputOf(result)).toBe(`own rg --version\n${path}`);
  });

  test('a host without PATH keeps the shell its default search path, and commands are not known to find rg', async () => {
    const harness = hostWithPath(undefined);
    expect(harness.tools.commandsFindRipgrep).toBe(false);
    const result = await harness.exec({ cmd: 'printf "%s" "${PATH-unset}"' });
    expect(outputOf(result)).not.toContain(bundledRipgrepFolder()!);
  });

  test("a policy PATH without rg is the caller's choice: commands are not known to find rg", () => {
    const tools = createExecHarness({ shellEnvironment: { set: { PATH: SYSTEM_PATH } } });
    harnesses.push(tools);
    expect(tools.tools.commandsFindRipgrep).toBe(false);
  });

  test('withBundledRipgrep and ripgrepOnPath agree', () => {
    expect(ripgrepOnPath({})).toBe(false);
    expect(ripgrepOnPath({ PATH: SYSTEM_PATH })).toBe(false);
    const added = withBundledRipgrep({ PATH: SYSTEM_PATH, OTHER: 'kept' });
    expect(added).toEqual({ PATH: `${SYSTEM_PATH}${delimiter}${bundledRipgrepFolder()}`, OTHER: 'kept' });
    expect(ripgrepOnPath(added)).toBe(true);
    expect(withBundledRipgrep({ OTHER: 'kept' })).toEqual({ OTHER: 'kept' });
  });
});
