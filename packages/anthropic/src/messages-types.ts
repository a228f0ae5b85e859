import type { JsonSchema } from 'toolhost';

/** A Messages API tool definition. */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchema;
  cache_control?: { type: 'ephemeral' };
}

/** A `tool_use` content block of an assistant message. */
export interface AnthropicToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** A `tool_result` content block answering one `tool_use`, to send back in the next user message. */
export interface AnthropicToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string;
  is_error?: boolean;
}
