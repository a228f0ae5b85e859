export {
  toAnthropicTools,
  ANTHROPIC_BASH_TOOL,
  ANTHROPIC_TEXT_EDITOR_TOOL,
  type AnthropicToolsOptions,
  type AnthropicToolsHost,
} from './anthropic-tools.js';
export { answerToolUses, type AnswerToolUsesOptions, type AnthropicToolHost } from './answer-tool-uses.js';
export { runBash, DEFAULT_BASH_TIMEOUT_MS, type BashOptions } from './bash-session.js';
export { runTextEditor, numberLines, textLines, type TextEditorOptions } from './text-editor.js';
export type {
  AnthropicTool,
  AnthropicBashTool,
  AnthropicTextEditorTool,
  AnthropicToolDefinition,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
} from './messages-types.js';
