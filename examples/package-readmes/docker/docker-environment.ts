// The README of @toolhost/docker shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHost } from 'toolhost';

// A running container (left running by close()):
const environment = await createDockerEnvironment({ container: 'my-sandbox', root: '/workspace' });
// …or a new one from an image (network mode none; close() removes it):
// const environment = await createDockerEnvironment({ image: 'node:20', root: '/workspace' });

const host = createToolHost({ environment, profile: 'advanced' });
await host.call('exec_command', { cmd: 'npm test' });
await host.close(); // kills every process the tools started in the container, then closes the environment
// #endregion readme
