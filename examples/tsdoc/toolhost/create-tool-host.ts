// The TSDoc @example of createToolHost (toolhost) is the region below, verbatim (test/tsdoc-examples.test.ts), so it
// compiles against the current API; it is type-checked, never imported or run.
// #region example
import { createToolHost } from 'toolhost';

const host = createToolHost({ workspace: '/abs/path/to/repo', profile: 'advanced' });
try {
  const result = await host.call('exec_command', { cmd: 'npm test', max_output_tokens: 2000 });
  console.log(result.ok, result.data?.exit_code, result.output);
} finally {
  await host.close();
}
// #endregion example
