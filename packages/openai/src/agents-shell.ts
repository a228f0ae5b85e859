import type { ToolHost } from 'toolhost';
import { runShellCommands, type ShellCommandsOptions } from './shell-commands.js';

/** A shell action of the Agents SDK: commands to run in order, with an optional timeout and output length. */
export interface AgentsShellAction {
  commands: string[];
  timeoutMs?: number;
  maxOutputLength?: number;
}

/** One command's result in the Agents SDK's shape (a type alias, so it fits the SDK's open-ended entry type). */
export type AgentsShellOutput = {
  stdout: string;
  stderr: string;
  outcome: { type: 'timeout' } | { type: 'exit'; exitCode: number | null };
};

/**
 * The OpenAI Agents SDK's `Shell` interface (from `@openai/agents-core`), as {@link createAgentsShell} implements it;
 * written out here so that this package's types do not pull in the Agents SDK's.
 */
export interface AgentsShell {
  run(action: AgentsShellAction): Promise<{ output: AgentsShellOutput[]; maxOutputLength?: number }>;
}

/**
 * An OpenAI Agents SDK `Shell` over a tool host: commands run through exec_command one after another, each killed with
 * its process tree at the action's timeout; one output entry per command.
 */
export function createAgentsShell(host: Pick<ToolHost, 'call'>, options: Omit<ShellCommandsOptions, 'onResult'> = {}): AgentsShell {
  return {
    async run(action) {
      const outcomes = await runShellCommands(host, action, options);
      const output = outcomes.map((entry): AgentsShellOutput => ({
        stdout: entry.stdout,
        stderr: entry.stderr,
        outcome: entry.outcome.type === 'timeout' ? { type: 'timeout' } : { type: 'exit', exitCode: entry.outcome.exit_code },
      }));
      return typeof action.maxOutputLength === 'number' ? { output, maxOutputLength: action.maxOutputLength } : { output };
    },
  };
}
