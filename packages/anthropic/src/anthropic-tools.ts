import type { ToolDefinition, ToolHost, ToolRole } from 'toolhost';
import type { AnthropicTool, AnthropicToolDefinition } from './messages-types.js';
import { NEWEST_TEXT_EDITOR_VERSION, textEditorDefinition, type AnthropicTextEditorVersion } from './text-editor-versions.js';

export { ANTHROPIC_TEXT_EDITOR_TOOL } from './text-editor-versions.js';

/** Which text editor `toAnthropicTools` declares with `native: true`. */
export interface AnthropicTextEditorChoice {
  /**
   * The tool version (default: the newest, `text_editor_20250728`): `text_editor_20241022` and `text_editor_20250124`
   * are called `str_replace_editor` and have `undo_edit`; `text_editor_20250429` and `text_editor_20250728` are called
   * `str_replace_based_edit_tool`. Pass the same tools to `answerToolUses` so it answers in this version.
   */
  version?: AnthropicTextEditorVersion;
  /** text_editor_20250728 only: `max_characters`, the most characters of a file a view shows. */
  maxCharacters?: number;
}

/** Options of `toAnthropicTools`. */
export interface AnthropicToolsOptions {
  /** Marks the last tool with `cache_control: {type:'ephemeral'}` so the tool list is prompt-cached. */
  cacheControl?: boolean;
  /**
   * Offer Anthropic's own tool types the models are trained on: `bash` in place of exec_command and write_stdin, the
   * text editor (`str_replace_based_edit_tool`) in place of apply_patch (answer them with `answerToolUses`).
   */
  native?: boolean;
  /** With `native: true`: the text editor's version and settings (default: the newest version). */
  textEditor?: AnthropicTextEditorChoice;
  /**
   * Also list the catalog tools not loaded yet, with `defer_loading: true`, so Anthropic's tool search can load them;
   * `answerToolUses` answers search_tools with `tool_reference` blocks for them.
   */
  deferLoading?: boolean;
}

/** The name of Anthropic's bash tool. */
export const ANTHROPIC_BASH_TOOL = 'bash';

const REPLACED_BY_BASH = new Set<ToolRole | undefined>(['shell', 'shell-input']);

function customTool(tool: ToolDefinition): AnthropicTool {
  return { name: tool.name, description: tool.description, input_schema: tool.inputSchema as AnthropicTool['input_schema'] };
}

/** The host surface `toAnthropicTools` reads. */
export type AnthropicToolsHost = Pick<ToolHost, 'tools'> & Partial<Pick<ToolHost, 'deferredTools'>>;

/**
 * Converts the host's current tools to Messages API tool definitions; call again after `host.nextSegment()`. Answer the
 * `tool_use` blocks of a reply with {@link answerToolUses}.
 *
 * @example
 * ```ts
 * import Anthropic from '@anthropic-ai/sdk';
 * import { answerToolUses, toAnthropicTools } from '@toolhost/anthropic';
 * import { createToolHost } from 'toolhost';
 *
 * const client = new Anthropic();
 * const host = createToolHost({ workspace: '/abs/path/to/repo' });
 * const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix the failing test.' }];
 * for (let turn = 0; turn < 20; turn++) {
 *   const message = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 4096, messages, tools: toAnthropicTools(host) });
 *   messages.push({ role: 'assistant', content: message.content });
 *   if (message.stop_reason !== 'tool_use') break;
 *   messages.push({ role: 'user', content: await answerToolUses(message.content, host) });
 *   host.nextSegment();
 * }
 * await host.close();
 * ```
 */
export function toAnthropicTools(host: AnthropicToolsHost, options?: AnthropicToolsOptions & { native?: false }): AnthropicTool[];
/** Converts the host's current tools to Messages API tool definitions, Anthropic's own bash and text editor included. */
export function toAnthropicTools(host: AnthropicToolsHost, options: AnthropicToolsOptions): AnthropicToolDefinition[];
export function toAnthropicTools(host: AnthropicToolsHost, options: AnthropicToolsOptions = {}): AnthropicToolDefinition[] {
  const tools: AnthropicToolDefinition[] = [];
  const editor = options.native
    ? textEditorDefinition(options.textEditor?.version ?? NEWEST_TEXT_EDITOR_VERSION, options.textEditor?.maxCharacters)
    : undefined;
  let bashListed = false;
  for (const tool of host.tools) {
    if (options.native && REPLACED_BY_BASH.has(tool.role)) {
      if (!bashListed) tools.push({ type: 'bash_20250124', name: ANTHROPIC_BASH_TOOL });
      bashListed = true;
    } else if (editor && tool.role === 'edit') tools.push({ ...editor });
    else tools.push(customTool(tool));
  }
  if (options.deferLoading) for (const tool of host.deferredTools ?? []) tools.push({ ...customTool(tool), defer_loading: true });
  if (options.cacheControl && tools.length) {
    // A deferred tool cannot carry the cache breakpoint: mark the last one sent up front.
    const upFront = tools.filter((tool) => !('defer_loading' in tool && tool.defer_loading));
    const last = upFront[upFront.length - 1];
    if (last) last.cache_control = { type: 'ephemeral' };
  }
  return tools;
}
