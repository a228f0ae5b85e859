import { checkShellEnvironmentPolicy, commandEnvironment, type EnvironmentProcesses, type ShellEnvironmentPolicy } from '@toolhost/core';
import { commandShellLevel } from './shell-level.js';

/** The variables every command of a host starts from, and where its shell program is looked up. */
export interface CommandVariables {
  /** What each command gets (before its own TERM and session marker). */
  base: Record<string, string>;
  /** TERM as the caller set it, if it did. */
  terminalType: string | undefined;
  /** The environment's own variables with the commands' over them: where the shell program is looked up. */
  lookup: Record<string, string>;
}

/** Applies the shell environment policy (checked here) and the caller's variables over the environment's own. */
export function commandVariables(
  processes: EnvironmentProcesses,
  policyOption: ShellEnvironmentPolicy | undefined,
  env: Record<string, string> | undefined,
): CommandVariables {
  checkShellEnvironmentPolicy(policyOption);
  const policy = policyOption ?? {};
  const inherited = processes.baseEnvironment();
  const base = commandEnvironment(inherited, { ...policy, set: { ...env, ...policy.set } });
  // A host started without a usable SHLVL (none, `x`, `0`, …), or a policy that drops or sets one, would otherwise have
  // bash run the user's ~/.bashrc before every command.
  base.SHLVL = commandShellLevel(base.SHLVL);
  return { base, terminalType: policy.set?.TERM ?? env?.TERM, lookup: { ...inherited, ...base } };
}
