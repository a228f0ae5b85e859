import { ToolMessage } from '@langchain/core/messages';
import { DynamicStructuredTool } from '@langchain/core/tools';
import { toolListChange, type JsonSchema, type ToolDefinition, type ToolHost, type ToolResult } from 'toolhost';

/** The part of a tool host the LangChain adapter uses (a real host or the fake one). */
export type LangChainToolHost = Pick<ToolHost, 'tools' | 'call'>;

/** Turns a host result into the text the model reads (the host's output, or a note on it for a fixed tool list). */
type ResultText = (result: ToolResult) => string;

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

/** A LangChain tool over `host.call(definition.name)` whose answer text comes from `text`. */
function hostTool(host: Pick<ToolHost, 'call'>, definition: ToolDefinition, text: ResultText): DynamicStructuredTool {
  return new DynamicStructuredTool({
    name: definition.name,
    description: definition.description,
    schema: hostSchema(definition.inputSchema) as never,
    func: async (input: unknown, _runManager?: unknown, config?: unknown): Promise<string | ToolMessage> => {
      const result: ToolResult = await host.call(definition.name, input);
      const content = text(result);
      const toolCallId = toolCallIdOf(config);
      if (!toolCallId) return content;
      return new ToolMessage({
        content,
        tool_call_id: toolCallId,
        name: definition.name,
        status: result.ok ? 'success' : 'error',
        artifact: result,
      });
    },
  });
}

/** Wraps one host tool as a LangChain tool; a call from a model's tool call returns a ToolMessage whose `status` is `error` for a failed result and whose `artifact` is the full result. */
export function toLangChainTool(host: Pick<ToolHost, 'call'>, definition: ToolDefinition): DynamicStructuredTool {
  return hostTool(host, definition, (result) => result.output);
}

/**
 * search_tools' answer for an agent whose tool list is fixed when it is created: the tools it loaded will never be
 * offered, so the line that calls them callable from the next request is replaced by one that says they are not.
 */
function fixedListSearchText(result: ToolResult): string {
  const loaded = toolListChange(result).nextRequest;
  if (loaded.length === 0) return result.output;
  const promise = `Loaded for your next request (callable from then on): ${loaded.join(', ')}.`;
  const fixed = `Not callable in this agent (its tool list was fixed when it was created): ${loaded.join(', ')}.`;
  return result.output.includes(promise) ? result.output.replace(promise, fixed) : `${result.output}\n\n${fixed}`;
}

/** Options of {@link toLangChainTools}. */
export interface LangChainToolsOptions {
  /**
   * The caller asks for the tools again before every model request, after `host.nextSegment()` (a hand-written loop),
   * so what search_tools loads is offered from the next request and its answer says so. Default `false`: the list is
   * fixed (`createAgent({ tools })`), and search_tools' answer says that the tools it found are not callable.
   */
  perRequest?: boolean;
}

/**
 * The host's current tools as LangChain tools. With `createAgent`, give it {@link toolHostMiddleware} instead when
 * the host has deferred catalog tools: a fixed tool list cannot offer what search_tools loads (its answer then says
 * so). A hand-written loop that rebinds the tools for every request passes `{ perRequest: true }`. Each tool answers with a `ToolMessage` whose content is the text for the model, `status`
 * `error` for a failed call, and the whole result as its `artifact`.
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
export function toLangChainTools(host: LangChainToolHost, options: LangChainToolsOptions = {}): DynamicStructuredTool[] {
  return host.tools.map((definition) =>
    definition.name === 'search_tools' && !options.perRequest
      ? hostTool(host, definition, fixedListSearchText)
      : toLangChainTool(host, definition),
  );
}
