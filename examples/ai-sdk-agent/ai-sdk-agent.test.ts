import { expect, it } from 'vitest';
import { main } from './index.js';

it('the AI SDK agent sees the test fail, patches math.js and sees it pass', async () => {
  const lines: string[] = [];
  await main((line) => lines.push(line));
  expect(lines).toEqual([
    'tool exec_command node --test → ok true (exit 1)',
    "tool exec_command sed -n '1,20p' math.js → ok true (exit 0)",
    expect.stringMatching(/^tool apply_patch .* → ok true$/),
    'tool exec_command node --test → ok true (exit 0)',
    'answer: Fixed add() in math.js; the tests pass.',
  ]);
});
