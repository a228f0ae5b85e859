// An OpenAI Agents SDK sandbox agent fixing a failing test, its sandbox a toolhost session: the agent's own
// exec_command and apply_patch run through toolhost (budgets, spooled output, boundary checks, atomic patches).
// The model is scripted so the example runs without a network or an API key; drop `model` to use a real one.
// For a container, pass `environment: () => createDockerEnvironment({ image: 'node:20', root: '/workspace' })`
// (from @toolhost/docker) to createToolHostSandboxClient; for an SSH host, `createSshEnvironment` (@toolhost/ssh).
import { pathToFileURL } from 'node:url';
import { Usage, run, setTracingDisabled, type Model, type ModelRequest, type ModelResponse } from '@openai/agents';
import { Manifest, SandboxAgent } from '@openai/agents/sandbox';
import { createToolHostSandboxClient } from '@toolhost/openai-agents';

/** What the scripted model does, one tool call per turn, then its final answer. */
const plan: ModelResponse['output'] = [
  { type: 'function_call', callId: 'call_1', name: 'exec_command', status: 'completed', arguments: JSON.stringify({ cmd: 'node --test' }) },
  {
    type: 'apply_patch_call',
    callId: 'call_2',
    status: 'completed',
    operation: {
      type: 'update_file',
      path: 'math.js',
      diff: '@@\n-export const add = (a, b) => a - b;\n+export const add = (a, b) => a + b;\n',
    },
  },
  { type: 'function_call', callId: 'call_3', name: 'exec_command', status: 'completed', arguments: JSON.stringify({ cmd: 'node --test' }) },
];

/** A Model that replays the plan and shows what the SDK sent back after each call. */
function scriptedModel(seen: (request: ModelRequest) => void): Model {
  let step = 0;
  return {
    async getResponse(request) {
      seen(request);
      const next = plan[step++];
      const output: ModelResponse['output'] = next
        ? [next]
        : [
            {
              type: 'message',
              role: 'assistant',
              status: 'completed',
              content: [{ type: 'output_text', text: 'Fixed add() in math.js; the tests pass.' }],
            },
          ];
      return { usage: new Usage(), output };
    },
    getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
}

/** The project the sandbox starts with: a failing test. */
const project = new Manifest({
  entries: {
    'package.json': { type: 'file', content: '{ "type": "module" }\n' },
    'math.js': { type: 'file', content: 'export const add = (a, b) => a - b;\n' },
    test: {
      type: 'dir',
      children: {
        'math.test.js': {
          type: 'file',
          content:
            "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../math.js';\n\ntest('add', () => assert.equal(add(2, 3), 5));\n",
        },
      },
    },
  },
});

/** Runs the agent in a new sandbox (a temporary folder, removed afterwards) and reports each tool answer through `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  setTracingDisabled(true);
  const agent = new SandboxAgent({
    name: 'fixer',
    instructions: 'You are a coding agent. Run the tests, fix what fails, and run them again.',
    defaultManifest: project,
    model: scriptedModel((request) => {
      const last = Array.isArray(request.input) ? request.input.at(-1) : undefined;
      if (last?.type === 'function_call_result') {
        const text = typeof last.output === 'string' ? last.output : 'text' in last.output ? last.output.text : '';
        log(`exec_command → ${/Process exited with code \d+/.exec(text)?.[0] ?? text.split('\n')[0]}`);
      } else if (last?.type === 'apply_patch_call_output') log(`apply_patch → ${last.status}: ${last.output?.split('\n')[0]}`);
    }),
  });
  const result = await run(agent, 'The add() test fails. Fix it.', { sandbox: { client: createToolHostSandboxClient() }, maxTurns: 10 });
  log(`answer: ${result.finalOutput}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
