import { expect, it } from 'vitest';
import { main } from './index.js';

it('the LangChain agent finds the TODO, recovers from a patch that does not match and resolves it', async () => {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  expect(lines[0]).toBe('exec_command [success] ./notes.md:2:- TODO: say hello');
  expect(lines[1]).toMatch(/^apply_patch \[error\] Error \[patch_context_not_found\]/);
  expect(lines.slice(2)).toEqual([
    'apply_patch [success] Success. Updated the following files:',
    'exec_command [success] # Notes',
    'answer: The TODO in notes.md is resolved.',
  ]);
});
