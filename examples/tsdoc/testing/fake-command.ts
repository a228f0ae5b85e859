// The TSDoc @example of FakeCommand (@toolhost/testing) is the region below, verbatim (test/tsdoc-examples.test.ts), so
// it compiles against the current API; it is type-checked, never imported or run.
import type { FakeCommand } from '@toolhost/testing';

// #region example
const commands: FakeCommand[] = [
  { match: 'git status --short', output: ' M src/sum.js\n' },
  { match: 'npm run lint', answers: [{ output: '1 problem\n', exitCode: 1 }, { output: '' }] },
  {
    match: 'npm test',
    answer: ({ files }) => (files['src/sum.js'].includes('a + b') ? { output: '# pass 1\n' } : { output: '# fail 1\n', exitCode: 1 }),
  },
];
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void commands;
