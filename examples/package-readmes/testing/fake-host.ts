// The README of @toolhost/testing shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { createFakeToolHost } from '@toolhost/testing';

const host = createFakeToolHost({ commands: [{ match: 'git status --short', output: ' M a.ts\n' }] });
const result = await host.call('exec_command', { cmd: 'git status --short' });
// #endregion readme

// Read here so the linter sees the names the README leaves for the reader to use.
void result;
