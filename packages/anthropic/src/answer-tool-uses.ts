import { toolListChange, type ToolHost, type ToolResult } from 'toolhost';
import { ANTHROPIC_BASH_TOOL } from './anthropic-tools.js';
import { runBash, type BashOptions } from './bash-session.js';
import type { AnthropicToolResultBlock, AnthropicToolUseBlock } from './messages-types.js';
import { runTextEditor, type TextEditorOptions } from './text-editor.js';
import {
  ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL,
  ANTHROPIC_TEXT_EDITOR_TOOL,
  NEWEST_TEXT_EDITOR_VERSION,
  declaredTextEditors,
  type DeclaredTextEditor,
} from './text-editor-versions.js';

/** Options of {@link answerToolUses}. */
export interface AnswerToolUsesOptions {
  /** Called with each call's full result (the model sees only `output`). */
  onResult?: (block: AnthropicToolUseBlock, result: ToolResult) => void;
  /** Anthropic's bash tool: command timeout and output budget. */
  bash?: BashOptions;
  /** Anthropic's text editor tool: the budget of its outputs (its version and max_characters come from `tools`). */
  textEditor?: TextEditorOptions;
  /**
   * The tools sent with the request (what `toAnthropicTools` returned): the text editor is answered under the name
   * and in the version declared there, with its `max_characters`. Without them, `str_replace_based_edit_tool` is
   * answered as text_editor_20250728 and `str_replace_editor` as text_editor_20250124.
   */
  tools?: readonly unknown[];
  /**
   * Answer search_tools with `tool_reference` blocks for the deferred tools it loaded (sent with `defer_loading: true`,
   * see `toAnthropicTools`; weak matches it only lists are not referenced), and make them callable at once: the host
   * starts its next segment.
   */
  toolReferences?: boolean;
}

/** The host surface {@link answerToolUses} uses (a real host or the fake one). */
export type AnthropicToolHost = Pick<ToolHost, 'call' | 'edit' | 'readPath' | 'budget' | 'shellPatch'> &
  Partial<Pick<ToolHost, 'nextSegment' | 'recordCommand'>>;

function isToolUse(block: unknown): block is AnthropicToolUseBlock {
  const candidate = block as AnthropicToolUseBlock;
  return candidate?.type === 'tool_use' && typeof candidate.id === 'string' && typeof candidate.name === 'string';
}

/**
 * Runs every `tool_use` block of an assistant message through the host, in order, and returns the `tool_result`
 * blocks for the next user message; failed calls carry `is_error: true`. `bash` runs on the host's persistent shell and
 * the text editor (`str_replace_based_edit_tool` or `str_replace_editor`) through the patch engine; other names go to
 * the host's tools. Other blocks are ignored.
 *
 * @example
 * ```ts
 * const message = await client.messages.create({ model, max_tokens: 4096, messages, tools: toAnthropicTools(host, { native: true }) });
 * messages.push({ role: 'assistant', content: message.content }, { role: 'user', content: await answerToolUses(message.content, host) });
 * ```
 */
export async function answerToolUses(
  blocks: readonly unknown[],
  host: AnthropicToolHost,
  options: AnswerToolUsesOptions = {},
): Promise<AnthropicToolResultBlock[]> {
  const results: AnthropicToolResultBlock[] = [];
  const editors: Map<string, DeclaredTextEditor> = options.tools
    ? declaredTextEditors(options.tools)
    : new Map([
        [ANTHROPIC_TEXT_EDITOR_TOOL, { version: NEWEST_TEXT_EDITOR_VERSION }],
        [ANTHROPIC_LEGACY_TEXT_EDITOR_TOOL, { version: 'text_editor_20250124' }],
      ]);
  for (const block of blocks) {
    if (!isToolUse(block)) continue;
    let result: ToolResult;
    if (block.name === ANTHROPIC_BASH_TOOL) result = await runBash(host, block.input, { ...options.bash, callId: block.id });
    else if (editors.has(block.name))
      result = await runTextEditor(host, block.input, { ...options.textEditor, ...editors.get(block.name), callId: block.id });
    else result = await host.call(block.name, block.input ?? {}, { callId: block.id });
    options.onResult?.(block, result);
    const answer: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: block.id, content: result.output };
    // The tools search_tools loaded or found callable are referenced; weak matches it did not load are not.
    const change = options.toolReferences && block.name === 'search_tools' ? toolListChange(result) : undefined;
    const references = change?.offered ?? [];
    if (references.length) {
      answer.content = [
        { type: 'text', text: result.output },
        ...references.map((name) => ({ type: 'tool_reference' as const, tool_name: name })),
      ];
      if (change?.changed) host.nextSegment?.();
    }
    if (!result.ok) answer.is_error = true;
    results.push(answer);
  }
  return results;
}
