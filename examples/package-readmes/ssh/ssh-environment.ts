// The README of @toolhost/ssh shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { readFileSync } from 'node:fs';
import { createSshEnvironment } from '@toolhost/ssh';
import { createToolHost } from 'toolhost';

const environment = await createSshEnvironment({
  host: 'build-7.internal',
  port: 22,
  username: 'agent',
  privateKey: readFileSync('/secrets/agent_ed25519'), // or agent: process.env.SSH_AUTH_SOCK
  root: '/home/agent/repo',
  // The host key is checked against ~/.ssh/known_hosts and /etc/ssh/ssh_known_hosts, as OpenSSH does.
});
const host = createToolHost({ environment });
await host.call('exec_command', { cmd: 'make test' });
await host.close(); // kills every process the tools started on the host, closes the connections
// #endregion readme
