import { createNodeWorkspace, type WorkspaceDurability } from '@toolhost/core/node';
import type { Environment, EnvironmentProcesses, Executor } from '@toolhost/core';
import { ripgrepOnPath, withBundledRipgrep } from './bundled-ripgrep.js';
import { createPipeExecutor } from './pipe-executor.js';
import { findMarkedProcesses, killMarkedProcesses, processGroupExists } from './process-tree.js';
import { createPtyExecutor, wrapperReaped } from './pty-executor.js';
import { shellCommand } from './shell-command.js';

/** Options of {@link createLocalProcesses}. */
export interface LocalProcessesOptions {
  /** Backends to use instead of the built-in pipe and PTY ones (tests and embedders). */
  executors?: { pipe?: Executor; pty?: Executor };
}

/**
 * The process side of this machine: detached pipes, node-pty (loaded on first use), `/proc` scans for markers. Commands
 * start from this process's variables, with the folder of the optional `@vscode/ripgrep` binary appended to PATH when
 * no `rg` is on it.
 */
export function createLocalProcesses(options: LocalProcessesOptions = {}): EnvironmentProcesses {
  const pipe = options.executors?.pipe ?? createPipeExecutor();
  let pty = options.executors?.pty;
  return {
    baseEnvironment() {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
      return withBundledRipgrep(env);
    },
    executor: (kind) => (kind === 'pty' ? (pty ??= createPtyExecutor()) : pipe),
    shell: (kind, cmd, env) => shellCommand(kind, cmd, env),
    async hasProcesses(child, marker) {
      // A PTY command's wrapper is being reaped (it settles as soon as its exit report is read): its process group
      // speaks of the command only once the wrapper is gone. The wait overlaps the building of the response.
      await wrapperReaped(child);
      if (processGroupExists(child.pid)) return true;
      // Processes the command started have pids above its shell's (until pids wrap around, which close()'s host-wide
      // sweep still covers), so only those are read.
      return (await findMarkedProcesses({ exact: marker }, { minPid: child.pid })).length > 0;
    },
    killMarked: (match) => killMarkedProcesses(match),
    findsRipgrep: (env) => ripgrepOnPath(env),
  };
}

/** Options of {@link createLocalEnvironment}. */
export interface LocalEnvironmentOptions extends LocalProcessesOptions {
  /** Absolute path of an existing folder: the workspace. */
  root: string;
  /**
   * What a multi-file edit survives: `'disk'` (default) a power loss, `'process'` only this process being killed, with
   * no flush (faster on large edits); see `createNodeWorkspace`.
   */
  durability?: WorkspaceDurability;
}

/** This machine as an environment: a folder on disk and local processes. close() releases nothing of its own. */
export function createLocalEnvironment(options: LocalEnvironmentOptions): Environment {
  return {
    kind: 'local',
    platform: process.platform,
    workspace: createNodeWorkspace(options.root, { durability: options.durability }),
    processes: createLocalProcesses(options),
    close: async () => {},
  };
}
