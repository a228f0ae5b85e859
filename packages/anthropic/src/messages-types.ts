// The Messages API shapes this adapter emits and reads, from the official `@anthropic-ai/sdk` package (types only).
import type {
  TextBlockParam,
  Tool,
  ToolBash20250124,
  ToolReferenceBlockParam,
  ToolResultBlockParam,
  ToolUseBlock,
} from '@anthropic-ai/sdk/resources/messages/messages';
import type { AnthropicTextEditorTool } from './text-editor-versions.js';

export type { AnthropicTextEditorTool } from './text-editor-versions.js';

/** A Messages API custom tool definition. */
export type AnthropicTool = Tool & { description: string };

/** Anthropic's bash tool (`native: true`): one persistent shell. */
export type AnthropicBashTool = ToolBash20250124;

/** A tool definition for the Messages API `tools` array. */
export type AnthropicToolDefinition = AnthropicTool | AnthropicBashTool | AnthropicTextEditorTool;

/** A `tool_use` content block of an assistant message. */
export type AnthropicToolUseBlock = Pick<ToolUseBlock, 'type' | 'id' | 'name' | 'input'>;

/** A `tool_result` content block answering one `tool_use`, to send back in the next user message. */
export type AnthropicToolResultBlock = ToolResultBlockParam & { content: string | Array<TextBlockParam | ToolReferenceBlockParam> };
