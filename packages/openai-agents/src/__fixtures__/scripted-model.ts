import { Usage, type Model, type ModelRequest, type ModelResponse } from '@openai/agents-core';

/** One tool call the scripted model makes in a turn. */
export type ScriptedCall = ModelResponse['output'][number];

/** What the SDK answered to one scripted call: the output item's type and its text. */
export interface SeenAnswer {
  type: string;
  status?: string;
  text: string;
}

function answerText(item: Record<string, unknown>): string {
  const output = item.output;
  if (typeof output === 'string') return output;
  if (output && typeof output === 'object' && typeof (output as { text?: unknown }).text === 'string')
    return (output as { text: string }).text;
  return JSON.stringify(output);
}

/** The answer to the previous turn's call: the last input item, when it is a tool output. */
function lastAnswer(request: ModelRequest): SeenAnswer | undefined {
  const last = Array.isArray(request.input) ? (request.input.at(-1) as Record<string, unknown> | undefined) : undefined;
  if (!last || typeof last.type !== 'string' || !/_result$|_output$/.test(last.type)) return undefined;
  return { type: last.type, ...(typeof last.status === 'string' ? { status: last.status } : {}), text: answerText(last) };
}

/**
 * A Model that makes the given tool calls one a turn, then answers `final`; `answers` collects what the SDK sent back
 * after each call and `tools` the tool names each request offered. No network.
 */
export function scriptedModel(
  plan: ScriptedCall[],
  final = 'done',
): { model: Model; answers: SeenAnswer[]; tools: string[][]; instructions: string[] } {
  const answers: SeenAnswer[] = [];
  const tools: string[][] = [];
  const instructions: string[] = [];
  let step = 0;
  const model: Model = {
    async getResponse(request) {
      const answer = lastAnswer(request);
      if (answer) answers.push(answer);
      tools.push(request.tools.map((tool) => ('name' in tool && typeof tool.name === 'string' ? tool.name : tool.type)));
      instructions.push(request.systemInstructions ?? '');
      const next = plan[step++];
      const output: ModelResponse['output'] = next
        ? [next]
        : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: final }] }];
      return { usage: new Usage(), output };
    },
    getStreamedResponse() {
      throw new Error('the scripted model does not stream');
    },
  };
  return { model, answers, tools, instructions };
}

/** A function-tool call of the scripted model. */
export function functionCall(callId: string, name: string, args: Record<string, unknown>): ScriptedCall {
  return { type: 'function_call', callId, name, status: 'completed', arguments: JSON.stringify(args) };
}

/** A native apply_patch call of the scripted model. */
export function applyPatchCall(
  callId: string,
  operation: { type: 'create_file' | 'update_file'; path: string; diff: string } | { type: 'delete_file'; path: string },
): ScriptedCall {
  return { type: 'apply_patch_call', callId, status: 'completed', operation };
}
