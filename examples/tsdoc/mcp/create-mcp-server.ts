// The TSDoc @example of createMcpServer (@toolhost/mcp) is the region below, verbatim (test/tsdoc-examples.test.ts), so
// it compiles against the current API; it is type-checked, never imported or run.
// #region example
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createMcpServer } from '@toolhost/mcp';
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: process.cwd(), profile: 'advanced' });
await createMcpServer(host).connect(new StdioServerTransport());
// #endregion example
