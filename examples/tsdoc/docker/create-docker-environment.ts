// The TSDoc @example of createDockerEnvironment (@toolhost/docker) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
// #region example
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHost } from 'toolhost';

// A new container from an image (removed by close()), or container: 'name-or-id' for one that runs already.
const host = createToolHost({ environment: await createDockerEnvironment({ image: 'node:22', root: '/workspace' }) });
// #endregion example

// Read here so the linter sees the names the example leaves for the reader to use.
void host;
