import type { ToolHost, ToolRole } from 'toolhost';
import type { ResponsesTool } from './responses-types.js';
import { toStrictJsonSchema } from './strict-json-schema.js';

/** Options of {@link toResponsesTools}. */
export interface ResponsesToolsOptions {
  /** Emit strict-mode function schemas (all properties required, optional ones nullable). Default false. */
  strict?: boolean;
  /** How tools with a grammar (apply_patch) are offered: a `custom` tool with the Lark grammar (default) or a function `{input}`. */
  freeform?: 'custom' | 'function';
  /**
   * Offer the Responses API's own tool types the models are trained on: `{type:'apply_patch'}` in place of apply_patch
   * and `{type:'shell'}` in place of exec_command and write_stdin (answer them with {@link answerResponsesCalls}).
   */
  native?: boolean;
}

/** Tools a native shell replaces: it runs commands to completion, so there is no session to write to. */
const REPLACED_BY_SHELL = new Set<ToolRole | undefined>(['shell', 'shell-input']);

/**
 * Converts the host's current tools to Responses API tool definitions; call again after `host.nextSegment()`. Answer
 * the calls of a response with {@link answerResponsesCalls}.
 *
 * @example
 * ```ts
 * import OpenAI from 'openai';
 * import { answerResponsesCalls, toResponsesTools } from '@toolhost/openai';
 * import { createToolHost } from 'toolhost';
 *
 * const client = new OpenAI();
 * const host = createToolHost({ workspace: '/abs/path/to/repo' });
 * let input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: 'Fix the failing test.' }];
 * let previousResponseId: string | undefined;
 * for (let turn = 0; turn < 20; turn++) {
 *   const response = await client.responses.create({
 *     model: 'gpt-5',
 *     input,
 *     previous_response_id: previousResponseId,
 *     tools: toResponsesTools(host),
 *   });
 *   const outputs = await answerResponsesCalls(response.output, host);
 *   if (outputs.length === 0) break;
 *   host.nextSegment();
 *   // The server keeps the conversation so far, so the next request sends only the tool outputs.
 *   input = outputs;
 *   previousResponseId = response.id;
 * }
 * await host.close();
 * ```
 */
export function toResponsesTools(host: Pick<ToolHost, 'tools'>, options: ResponsesToolsOptions = {}): ResponsesTool[] {
  const strict = options.strict ?? false;
  const tools: ResponsesTool[] = [];
  let shellListed = false;
  for (const tool of host.tools) {
    if (options.native && tool.role === 'edit') {
      tools.push({ type: 'apply_patch' });
      continue;
    }
    if (options.native && REPLACED_BY_SHELL.has(tool.role)) {
      if (!shellListed) tools.push({ type: 'shell' });
      shellListed = true;
      continue;
    }
    if (tool.freeform && (options.freeform ?? 'custom') === 'custom') {
      tools.push({
        type: 'custom',
        name: tool.name,
        description: tool.description,
        format: { type: 'grammar', syntax: tool.freeform.syntax, definition: tool.freeform.definition },
      });
      continue;
    }
    tools.push({
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: strict ? toStrictJsonSchema(tool.inputSchema) : tool.inputSchema,
      strict,
    });
  }
  return tools;
}
