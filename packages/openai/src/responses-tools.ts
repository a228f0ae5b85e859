import type { ToolHost } from 'toolhost';
import type { ResponsesTool } from './responses-types.js';
import { toStrictJsonSchema } from './strict-json-schema.js';

/** Options of {@link toResponsesTools}. */
export interface ResponsesToolsOptions {
  /** Emit strict-mode function schemas (all properties required, optional ones nullable). Default false. */
  strict?: boolean;
  /** How tools with a grammar (apply_patch) are offered: a `custom` tool with the Lark grammar (default) or a function `{input}`. */
  freeform?: 'custom' | 'function';
}

/** Converts the host's current tools to Responses API tool definitions; call again after `host.nextSegment()`. */
export function toResponsesTools(host: Pick<ToolHost, 'tools'>, options: ResponsesToolsOptions = {}): ResponsesTool[] {
  const strict = options.strict ?? false;
  return host.tools.map((tool): ResponsesTool => {
    if (tool.freeform && (options.freeform ?? 'custom') === 'custom') {
      return {
        type: 'custom',
        name: tool.name,
        description: tool.description,
        format: { type: 'grammar', syntax: tool.freeform.syntax, definition: tool.freeform.definition },
      };
    }
    return {
      type: 'function',
      name: tool.name,
      description: tool.description,
      parameters: strict ? toStrictJsonSchema(tool.inputSchema) : tool.inputSchema,
      strict,
    };
  });
}
