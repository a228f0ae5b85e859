export {
  toAnthropicTools,
  ANTHROPIC_BASH_TOOL,
  ANTHROPIC_TEXT_EDITOR_TOOL,
  type AnthropicToolsOptions,
  type AnthropicTextEditorChoice,
  type AnthropicToolsHost,
} from './anthropic-tools.js';
export { answerToolUses, type AnswerToolUsesOptions, type AnthropicToolHost } from './answer-tool-uses.js';
export { runBash, DEFAULT_BASH_TIMEOUT_MS, type BashOptions } from './bash-session.js';
export { runTextEditor, numberLines, textLines, type TextEditorOptions } from './text-editor.js';
export {
  ANTHROPIC_TEXT_EDITOR_VERSIONS,
  ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL,
  NEWEST_TEXT_EDITOR_VERSION,
  textEditorDefinition,
  type AnthropicTextEditorVersion,
} from './text-editor-versions.js';
export type {
  AnthropicTool,
  AnthropicBashTool,
  AnthropicTextEditorTool,
  AnthropicToolDefinition,
  AnthropicToolUseBlock,
  AnthropicToolResultBlock,
} from './messages-types.js';
