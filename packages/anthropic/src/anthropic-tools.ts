import type { ToolHost } from 'toolhost';
import type { AnthropicTool } from './messages-types.js';

/** Options of {@link toAnthropicTools}. */
export interface AnthropicToolsOptions {
  /** Marks the last tool with `cache_control: {type:'ephemeral'}` so the tool list is prompt-cached. */
  cacheControl?: boolean;
}

/** Converts the host's current tools to Messages API tool definitions; call again after `host.nextSegment()`. */
export function toAnthropicTools(host: Pick<ToolHost, 'tools'>, options: AnthropicToolsOptions = {}): AnthropicTool[] {
  const tools = host.tools.map((tool): AnthropicTool => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema }));
  if (options.cacheControl && tools.length) tools[tools.length - 1].cache_control = { type: 'ephemeral' };
  return tools;
}
