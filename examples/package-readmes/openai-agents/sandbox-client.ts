// The README of @toolhost/openai-agents shows the region below verbatim (test/package-readme-examples.test.ts), so it compiles
// against the current API; it is type-checked, never imported or run.
// #region readme
import { run } from '@openai/agents';
import { SandboxAgent } from '@openai/agents/sandbox';
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHostSandboxClient } from '@toolhost/openai-agents';

const agent = new SandboxAgent({ name: 'fixer', instructions: 'Run the tests and fix what fails.' });

// Each session gets a new temporary folder on this machine (removed when the session closes)…
const client = createToolHostSandboxClient();
// …or its own environment, e.g. a new container from an image (removed when the session closes):
// const client = createToolHostSandboxClient({ environment: () => createDockerEnvironment({ image: 'node:20', root: '/workspace' }) });

const result = await run(agent, 'The add() test fails.', { sandbox: { client } });
// #endregion readme

// Read here so the linter sees them used: the README leaves `result` to the reader and imports createDockerEnvironment
// for its commented-out variant.
void createDockerEnvironment;
void result;
