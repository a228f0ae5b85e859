import { ToolHostError } from '@toolhost/core';
import type { FakeCommand, FakeCommandAnswer } from './fake-command.js';

/**
 * Returns what gives the answer of each run of a scripted command: its fixed one, the next of its sequence, or what its
 * function computes (with the workspace's files as text from `files`).
 */
export function createScriptedAnswers(files?: () => Record<string, string>): (command: FakeCommand, cmd: string) => FakeCommandAnswer {
  const runs = new Map<FakeCommand, number>();
  return (command, cmd) => {
    const run = runs.get(command) ?? 0;
    runs.set(command, run + 1);
    if (command.answers) return command.answers[Math.min(run, command.answers.length - 1)];
    if (command.answer) {
      const answer = command.answer({ cmd, run, files: files?.() ?? {} });
      if (typeof answer?.output !== 'string')
        throw new ToolHostError('invalid_options', `scripted command ${String(command.match)}: \`answer\` returned no string \`output\``);
      return answer;
    }
    return { output: command.output ?? '', exitCode: command.exitCode, delayMs: command.delayMs, stdin: command.stdin };
  };
}
