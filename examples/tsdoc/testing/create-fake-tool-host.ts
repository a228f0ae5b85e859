// The TSDoc @example of createFakeToolHost (@toolhost/testing) is the region below, verbatim (test/tsdoc-
// examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
import type { ToolHost } from 'toolhost';
import { expect } from 'vitest';

/** The agent code under test. */
declare function runMyAgent(host: ToolHost): Promise<void>;

// #region example
import { createFakeToolHost } from '@toolhost/testing';

const host = createFakeToolHost({
  files: { 'src/greet.js': "export const greet = (name) => 'Helo, ' + name;\n" },
  commands: [{ match: 'npm test', output: '# pass 1\n' }],
});
await runMyAgent(host); // the agent code under test, written against the ToolHost type
expect(host.calls.map((call) => call.name)).toContain('apply_patch');
// #endregion example
