import { expect, it } from 'vitest';
import { main } from './index.js';

it('the sandbox agent runs the tests through exec_command, patches math.js through apply_patch and sees them pass', async () => {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  expect(lines).toEqual([
    'exec_command → Process exited with code 1',
    'apply_patch → completed: Success. Updated the following files:',
    'exec_command → Process exited with code 0',
    'answer: Fixed add() in math.js; the tests pass.',
  ]);
});
