import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import type { JsonSchema, ToolDefinition, ToolHost, ToolResult } from 'toolhost';

/** The part of a tool host the LangChain adapter uses (a real host or the fake one). */
export type LangChainToolHost = Pick<ToolHost, 'tools' | 'call'>;

/**
 * A Standard JSON Schema wrapper: LangChain sends `jsonSchema.input()` (the host's schema, unchanged) to the model,
 * and its own pre-validation sees no constraints, so every call reaches `host.call`, which validates with zod and
 * answers mistakes with a result the model can act on.
 */
export function hostSchema(schema: JsonSchema) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'toolhost',
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

function toolCallIdOf(config: unknown): string | undefined {
  const id = (config as { toolCall?: { id?: unknown } } | undefined)?.toolCall?.id;
  return typeof id === 'string' ? id : undefined;
}

/** Wraps one host tool as a LangChain tool; a call from a model's tool call returns a ToolMessage whose `status` is `error` for a failed result and whose `artifact` is the full result. */
export function toLangChainTool(host: Pick<ToolHost, 'call'>, definition: ToolDefinition): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: definition.name,
    description: definition.description,
    schema: hostSchema(definition.inputSchema) as never,
    func: async (input: unknown, _runManager?: unknown, config?: unknown): Promise<string | ToolMessage> => {
      const result: ToolResult = await host.call(definition.name, input);
      const toolCallId = toolCallIdOf(config);
      if (!toolCallId) return result.output;
      return new ToolMessage({
        content: result.output,
        tool_call_id: toolCallId,
        name: definition.name,
        status: result.ok ? 'success' : 'error',
        artifact: result,
      });
    },
  });
}

/**
 * The host's current tools as LangChain tools; call again after `host.nextSegment()` to include expanded catalog tools.
 * Each answers with a `ToolMessage` whose content is the text for the model, `status` `error` for a failed call, and the
 * whole result as its `artifact`.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { toLangChainTools } from '@toolhost/langchain';
 * import { createToolHost } from 'toolhost';
 *
 * const host = createToolHost({ workspace: '/abs/path/to/repo' });
 * const agent = createAgent({ model, tools: toLangChainTools(host), systemPrompt: 'You are a coding agent.' });
 * const state = await agent.invoke({ messages: [{ role: 'user', content: 'Fix the failing test.' }] });
 * await host.close();
 * ```
 */
export function toLangChainTools(host: LangChainToolHost): DynamicStructuredTool[] {
  return host.tools.map((definition) => toLangChainTool(host, definition));
}
