// The TSDoc @example of createSshEnvironment (@toolhost/ssh) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
// #region example
import { readFileSync } from 'node:fs';
import { createSshEnvironment } from '@toolhost/ssh';
import { createToolHost } from 'toolhost';

const environment = await createSshEnvironment({
  host: 'build-1',
  username: 'agent',
  privateKey: readFileSync('/home/me/.ssh/id_ed25519'),
  root: '/srv/repo',
});
const host = createToolHost({ environment });
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void host;
