import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { ShellCommand, ShellKind } from '@toolhost/core';

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Finds `name` on PATH (or checks it when it is a path); undefined when absent. */
export function findExecutable(name: string, pathVariable = process.env.PATH ?? ''): string | undefined {
  if (name.includes('/')) return isAbsolute(name) && isExecutableFile(name) ? name : undefined;
  for (const folder of pathVariable.split(delimiter)) {
    if (!folder) continue;
    const candidate = join(folder, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Chooses how to run `cmd`: unix_like → `$SHELL -c cmd` (falling back to `/bin/sh`), powershell →
 * `pwsh -NoProfile -Command cmd` (an error naming the missing program when pwsh is not installed).
 */
export function shellCommand(shell: ShellKind, cmd: string, env: Record<string, string | undefined> = process.env): ShellCommand {
  if (shell === 'powershell') {
    const pwsh = findExecutable('pwsh', env.PATH ?? '');
    if (!pwsh) {
      return {
        ok: false,
        message:
          'PowerShell (pwsh) is not installed on this machine, so the command could not start. Ask the user to install PowerShell 7 or to use the unix_like shell profile.',
      };
    }
    return { ok: true, file: pwsh, args: ['-NoProfile', '-Command', cmd] };
  }
  const preferred = env.SHELL && isAbsolute(env.SHELL) && isExecutableFile(env.SHELL) ? env.SHELL : '/bin/sh';
  return { ok: true, file: preferred, args: ['-c', cmd] };
}
