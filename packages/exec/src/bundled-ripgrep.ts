import { createRequire } from 'node:module';
import { delimiter, dirname } from 'node:path';
import { findExecutable } from './shell-command.js';

/** The name of ripgrep's program on this platform. */
const RIPGREP_PROGRAM = process.platform === 'win32' ? 'rg.exe' : 'rg';

let located: { folder: string | undefined } | undefined;

/**
 * The folder of the rg binary the optional `@vscode/ripgrep` installed for this platform, or undefined when it is not
 * installed. It is looked up as `@vscode/ripgrep` computes its `rgPath`, which cannot be read synchronously (an ES module).
 */
export function bundledRipgrepFolder(): string | undefined {
  located ??= { folder: locateBundledRipgrep() };
  return located.folder;
}

function locateBundledRipgrep(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve('@vscode/ripgrep');
    const arch = process.env.npm_config_arch || process.arch;
    const binary = createRequire(entry).resolve(`@vscode/ripgrep-${process.platform}-${arch}/bin/${RIPGREP_PROGRAM}`);
    return findExecutable(binary) ? dirname(binary) : undefined;
  } catch {
    return undefined;
  }
}

/** The name `env` gives its search path (Windows spells it `Path`, and its names ignore case). */
function pathName(env: Record<string, string>): string | undefined {
  if (process.platform !== 'win32') return env.PATH === undefined ? undefined : 'PATH';
  return Object.keys(env).find((name) => name.toUpperCase() === 'PATH');
}

/** Whether a command started with `env` finds `rg` on its PATH (without a PATH it is not known, so false). */
export function ripgrepOnPath(env: Record<string, string>): boolean {
  const name = pathName(env);
  return name !== undefined && findExecutable(RIPGREP_PROGRAM, env[name]) !== undefined;
}

/**
 * `env` with the bundled ripgrep's folder appended to its PATH when no `rg` is on it yet, so `rg` works in commands
 * and one the user installed still comes first. An `env` without PATH is left alone: one would replace the shell's
 * default search path.
 */
export function withBundledRipgrep(env: Record<string, string>): Record<string, string> {
  const name = pathName(env);
  const folder = bundledRipgrepFolder();
  if (name === undefined || folder === undefined || ripgrepOnPath(env)) return env;
  const path = env[name];
  return { ...env, [name]: path === '' ? folder : `${path}${delimiter}${folder}` };
}
