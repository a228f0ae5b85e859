import type { Shell, ShellAction, ShellResult } from '@openai/agents-core';
import type { ToolHost } from 'toolhost';
import { runShellCommands, type ShellCommandsOptions } from './shell-commands.js';

/**
 * An OpenAI Agents SDK `Shell` over a tool host: commands run through exec_command one after another, each killed with
 * its process tree at the action's timeout; one output entry per command.
 */
export function createAgentsShell(host: Pick<ToolHost, 'call'>, options: Omit<ShellCommandsOptions, 'onResult'> = {}): Shell {
  return {
    async run(action: ShellAction): Promise<ShellResult> {
      const outcomes = await runShellCommands(host, action, options);
      const result: ShellResult = {
        output: outcomes.map((entry) => ({
          stdout: entry.stdout,
          stderr: entry.stderr,
          outcome: entry.outcome.type === 'timeout' ? { type: 'timeout' as const } : { type: 'exit' as const, exitCode: entry.outcome.exit_code },
        })),
      };
      if (typeof action.maxOutputLength === 'number') result.maxOutputLength = action.maxOutputLength;
      return result;
    },
  };
}
