// The README of @toolhost/testing shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
import { createFakeToolHost, type FakeToolHost } from '@toolhost/testing';

/** A fake host whose tests fail until src/sum.js adds, and whose lint fails once, then passes. */
export function sumFixtureHost(): FakeToolHost {
  // #region readme
  const host = createFakeToolHost({
    files: { 'src/sum.js': 'export const sum = (a, b) => a - b;\n' },
    commands: [
      { match: 'npm run lint', answers: [{ output: '1 problem\n', exitCode: 1 }, { output: '' }] },
      {
        match: 'npm test',
        answer: ({ files }) => (files['src/sum.js'].includes('a + b') ? { output: '# pass 1\n' } : { output: '# fail 1\n', exitCode: 1 }),
      },
    ],
  });
  // #endregion readme
  return host;
}
