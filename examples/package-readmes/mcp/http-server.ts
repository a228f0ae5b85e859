// The README of @toolhost/mcp shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { createDockerEnvironment } from '@toolhost/docker';
import { createMcpHttpServer } from '@toolhost/mcp';

const server = createMcpHttpServer({
  token: process.env.MCP_TOKEN!,
  // Every MCP session gets its own container, removed when the session ends.
  environment: () => createDockerEnvironment({ image: 'node:22', root: '/workspace' }),
  host: { profile: 'advanced' },
  idleTimeoutMs: 10 * 60_000,
});
await server.listen(8765, '127.0.0.1');
// #endregion readme
