import type { ToolHost, ToolResult } from 'toolhost';
import type { AnthropicToolResultBlock, AnthropicToolUseBlock } from './messages-types.js';

/** Options of {@link answerToolUses}. */
export interface AnswerToolUsesOptions {
  /** Called with each call's full result (the model sees only `output`). */
  onResult?: (block: AnthropicToolUseBlock, result: ToolResult) => void;
}

function isToolUse(block: unknown): block is AnthropicToolUseBlock {
  const candidate = block as AnthropicToolUseBlock;
  return candidate?.type === 'tool_use' && typeof candidate.id === 'string' && typeof candidate.name === 'string';
}

/**
 * Runs every `tool_use` block of an assistant message through the host, in order, and returns the `tool_result`
 * blocks for the next user message; failed calls carry `is_error: true`. Other blocks are ignored.
 */
export async function answerToolUses(
  blocks: readonly unknown[],
  host: Pick<ToolHost, 'call'>,
  options: AnswerToolUsesOptions = {},
): Promise<AnthropicToolResultBlock[]> {
  const results: AnthropicToolResultBlock[] = [];
  for (const block of blocks) {
    if (!isToolUse(block)) continue;
    const result = await host.call(block.name, block.input ?? {});
    options.onResult?.(block, result);
    const answer: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: block.id, content: result.output };
    if (!result.ok) answer.is_error = true;
    results.push(answer);
  }
  return results;
}
