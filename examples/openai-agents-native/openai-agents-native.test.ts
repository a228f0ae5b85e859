import { expect, it } from 'vitest';
import { main } from './index.js';

it('the Agents SDK agent runs the tests through the shell tool, patches math.js through the editor and sees them pass', async () => {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  expect(lines).toEqual([
    'shell → exit 1',
    'apply_patch → completed: Success. Updated the following files:',
    'shell → exit 0',
    'answer: Fixed add() in math.js; the tests pass.',
  ]);
});
