export { toAnthropicTools, type AnthropicToolsOptions } from './anthropic-tools.js';
export { answerToolUses, type AnswerToolUsesOptions } from './answer-tool-uses.js';
export type { AnthropicTool, AnthropicToolUseBlock, AnthropicToolResultBlock } from './messages-types.js';
