// An AI SDK agent fixing a failing test with toolhost's tools. The model is a scripted mock so the example runs
// without a network or an API key; swap in a real one (e.g. `openai('gpt-5')` from @ai-sdk/openai) to try it live.
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { createAiSdkTools } from '@toolhost/ai-sdk';
import { createToolHost } from 'toolhost';

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 0, text: 0, reasoning: undefined },
};

/** What the scripted model does, one tool call per step, then its final answer. */
const plan = [
  { toolName: 'exec_command', input: { cmd: 'node --test' } },
  { toolName: 'exec_command', input: { cmd: "sed -n '1,20p' math.js" } },
  {
    toolName: 'apply_patch',
    input: {
      input:
        '*** Begin Patch\n*** Update File: math.js\n@@\n-export const add = (a, b) => a - b;\n+export const add = (a, b) => a + b;\n*** End Patch',
    },
  },
  { toolName: 'exec_command', input: { cmd: 'node --test' } },
];

function scriptedModel() {
  let step = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const next = plan[step++];
      if (!next)
        return {
          content: [{ type: 'text', text: 'Fixed add() in math.js; the tests pass.' }],
          finishReason: { unified: 'stop', raw: 'stop' },
          usage,
          warnings: [],
        };
      return {
        content: [{ type: 'tool-call', toolCallId: `call_${step}`, toolName: next.toolName, input: JSON.stringify(next.input) }],
        finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
        usage,
        warnings: [],
      };
    },
  });
}

/** Runs the agent in a temporary project and reports each step through `log`. */
export async function main(log: (line: string) => void = console.log): Promise<void> {
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-ai-sdk-agent-'));
  writeFileSync(join(workspace, 'package.json'), '{ "type": "module" }\n');
  writeFileSync(join(workspace, 'math.js'), 'export const add = (a, b) => a - b;\n');
  mkdirSync(join(workspace, 'test'));
  writeFileSync(
    join(workspace, 'test/math.test.js'),
    "import test from 'node:test';\nimport assert from 'node:assert';\nimport { add } from '../math.js';\n\ntest('add', () => assert.equal(add(2, 3), 5));\n",
  );
  const host = createToolHost({ workspace, profile: 'default' });
  try {
    const tools = createAiSdkTools(host);
    const result = await generateText({
      model: scriptedModel(),
      system: 'You are a coding agent. Run the tests, fix what fails, and run them again.',
      prompt: 'The add() test fails. Fix it.',
      tools: tools.tools,
      prepareStep: tools.prepareStep,
      stopWhen: stepCountIs(10),
    });
    for (const step of result.steps) {
      for (const toolResult of step.toolResults) {
        // The built-in tools' inputs and results are typed by toolName; a catalog tool's come with dynamic: true.
        if (toolResult.dynamic) continue;
        const { ok, data } = toolResult.output;
        const exit = typeof data?.exit_code === 'number' ? ` (exit ${data.exit_code})` : '';
        const shown = toolResult.toolName === 'exec_command' ? toolResult.input.cmd : JSON.stringify(toolResult.input);
        log(`tool ${toolResult.toolName} ${shown} → ok ${ok}${exit}`);
      }
    }
    log(`answer: ${result.text}`);
  } finally {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
