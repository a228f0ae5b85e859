// An OpenAI Agents SDK agent fixing a failing test with toolhost behind the SDK's own apply_patch and shell tools.
// The model is scripted so the example runs without a network or an API key; drop `model` to use a real one.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  Agent,
  Usage,
  applyPatchTool,
  run,
  setTracingDisabled,
  shellTool,
  type Model,
  type ModelRequest,
  type ModelResponse,
} from '@openai/agents';
import { createAgentsEditor, createAgentsShell } from '@toolhost/openai';
import { createToolHost } from 'toolhost';

/** What the scripted model does, one tool call per turn, then its final answer. */
const plan: ModelResponse['output'] = [
  { type: 'shell_call', callId: 'call_1', status: 'completed', action: { commands: ['node --test'], timeoutMs: 60_000 } },
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
  { type: 'shell_call', callId: 'call_3', status: 'completed', action: { commands: ['node --test'], timeoutMs: 60_000 } },
];

/** A Model that replays the plan and records what the SDK sent back after each call. */
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

/** Runs the agent in a temporary project and reports each tool answer through `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  setTracingDisabled(true);
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-openai-agents-'));
  writeFileSync(join(workspace, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(workspace, 'math.js'), 'export const add = (a, b) => a - b;\n');
  mkdirSync(join(workspace, 'test'));
  writeFileSync(
    join(workspace, 'test/math.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../math.js';\n\ntest('add', () => assert.equal(add(2, 3), 5));\n",
  );
  const host = createToolHost({ workspace, profile: 'default' });
  try {
    const agent = new Agent({
      name: 'fixer',
      instructions: 'You are a coding agent. Run the tests, fix what fails, and run them again.',
      model: scriptedModel((request) => {
        const last = Array.isArray(request.input) ? request.input.at(-1) : undefined;
        if (last?.type === 'shell_call_output') {
          const [first] = last.output;
          const outcome = first?.outcome.type === 'exit' ? `exit ${first.outcome.exitCode}` : 'timeout';
          log(`shell → ${outcome}`);
        } else if (last?.type === 'apply_patch_call_output') log(`apply_patch → ${last.status}: ${last.output?.split('\n')[0]}`);
      }),
      tools: [shellTool({ shell: createAgentsShell(host) }), applyPatchTool({ editor: createAgentsEditor(host) })],
    });
    const result = await run(agent, 'The add() test fails. Fix it.', { maxTurns: 10 });
    log(`answer: ${result.finalOutput}`);
  } finally {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
