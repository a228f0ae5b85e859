// The TSDoc @example of createToolHostSandboxClient (@toolhost/openai-agents) is the region below, verbatim
// (test/tsdoc-examples.test.ts), so it compiles against the current API; it is type-checked, never imported or run.
// #region example
import { run } from '@openai/agents';
import { SandboxAgent } from '@openai/agents/sandbox';
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHostSandboxClient } from '@toolhost/openai-agents';

const agent = new SandboxAgent({ name: 'fixer', instructions: 'Run the tests and fix what fails.' });
// Each session in a new temporary folder; or pass environment: () => createDockerEnvironment({ image, root }).
const result = await run(agent, 'The add() test fails.', { sandbox: { client: createToolHostSandboxClient() } });
// #endregion example

// Read here so the linter sees them used: the example leaves `result` to the reader and imports createDockerEnvironment
// for its variant in the comment.
void createDockerEnvironment;
void result;
