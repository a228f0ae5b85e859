import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';
import type { BuiltinToolInputs, BuiltinToolName, ToolDefinition, ToolHost, ToolResult, ToolResultOf } from 'toolhost';

/** The part of a tool host the AI SDK adapter uses (a real host or the fake one). */
export type AiSdkToolHost = Pick<ToolHost, 'tools' | 'call' | 'nextSegment'>;

/**
 * The AI SDK tools of toolhost's built-in tools, by name: each takes the tool's arguments as a model sends them (fields
 * with a default optional) and returns a `ToolResult`, so the tool calls and results of `generateText` steps are
 * typed by `toolName`, each result's `data` by its tool (`ToolResultOf` of `toolhost`). `code_search` is there in the advanced profile only. Catalog tools that search_tools reveals are
 * added to the same object at run time as dynamic tools: their calls and results come with `dynamic: true` and an
 * `unknown` input and output.
 */
export type AiSdkToolSet = { [Name in BuiltinToolName]: Tool<BuiltinToolInputs[Name], ToolResultOf<Name>> };

/** Maps a host result to what the model sees: `text`, or `error-text` for a failed call. */
export function toModelOutput(result: ToolResult): { type: 'text'; value: string } | { type: 'error-text'; value: string } {
  return result.ok ? { type: 'text', value: result.output } : { type: 'error-text', value: result.output };
}

/**
 * Wraps one host tool as an AI SDK tool; its JSON Schema passes through unchanged and the host validates the input. A
 * catalog tool (one without a built-in tool's `role`) is a dynamic tool, its types known only at run time.
 */
export function toAiSdkTool(host: Pick<ToolHost, 'call'>, definition: ToolDefinition): Tool<unknown, ToolResult> {
  const parts = {
    description: definition.description,
    inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
    execute: (input: unknown) => host.call(definition.name, input),
    toModelOutput: ({ output }: { output: ToolResult }) => toModelOutput(output),
  };
  // A built-in tool has a role; a tool without one comes from the catalog. Inferred, not spelled out: AI SDK 7's `tool`
  // takes a context type where AI SDK 6's takes the output type.
  const made: Tool<unknown, ToolResult> = definition.role !== undefined ? tool(parts) : tool({ ...parts, type: 'dynamic' });
  return made;
}

/**
 * The host's current tools as an AI SDK tool set, typed by tool name ({@link AiSdkToolSet}); for catalog tools that
 * search_tools reveals across steps use {@link createAiSdkTools}.
 *
 * @example
 * ```ts
 * const result = await generateText({ model, tools: toAiSdkTools(host), prompt: 'Run the tests.', stopWhen: stepCountIs(10) });
 * ```
 */
export function toAiSdkTools(host: Pick<ToolHost, 'tools' | 'call'>): AiSdkToolSet {
  const tools: Record<string, Tool<unknown, ToolResult>> = {};
  for (const definition of host.tools) tools[definition.name] = toAiSdkTool(host, definition);
  return tools as unknown as AiSdkToolSet;
}

/** A live tool set plus the `prepareStep` that keeps it in step with the host. */
export interface AiSdkTools {
  /** Every tool the host has shown so far, typed by tool name; pass it as `tools` to generateText / streamText. */
  readonly tools: AiSdkToolSet;
  /**
   * Pass as `prepareStep`: each step is a new request segment, so it calls `host.nextSegment()`, adds the tools that
   * search_tools expanded to `tools` and limits the step to the host's current tools with `activeTools` (which names
   * those catalog tools too, though its type lists the built-in names only). A function property, not a method: it is
   * meant to be passed on detached (`prepareStep: tools.prepareStep`).
   */
  readonly prepareStep: () => { activeTools: Array<keyof AiSdkToolSet> };
  /** Starts a new request segment and returns the names of the tools now visible. */
  refresh(): string[];
}

/**
 * Creates a tool set that grows when search_tools expands deferred catalog tools (visible from the next step on). The
 * steps' tool calls and results are typed for the built-in tools; catalog tools' come as dynamic ones.
 *
 * @example
 * ```ts
 * import { generateText, stepCountIs } from 'ai';
 * import { createAiSdkTools } from '@toolhost/ai-sdk';
 * import { createToolHost } from 'toolhost';
 *
 * const host = createToolHost({ workspace: '/abs/path/to/repo' });
 * const live = createAiSdkTools(host);
 * const result = await generateText({
 *   model,
 *   tools: live.tools,
 *   prepareStep: live.prepareStep,
 *   prompt: 'Fix the failing test.',
 *   stopWhen: stepCountIs(20),
 * });
 * for (const call of result.steps.flatMap((step) => step.toolResults)) {
 *   if (!call.dynamic && call.toolName === 'exec_command') console.log(call.input.cmd, call.output.ok);
 * }
 * await host.close();
 * ```
 */
export function createAiSdkTools(host: AiSdkToolHost): AiSdkTools {
  const tools: Record<string, Tool<unknown, ToolResult>> = {};
  const sync = (definitions: ToolDefinition[]) => {
    for (const definition of definitions) if (!(definition.name in tools)) tools[definition.name] = toAiSdkTool(host, definition);
    return definitions.map((definition) => definition.name);
  };
  sync(host.tools);
  const refresh = () => sync(host.nextSegment());
  return {
    tools: tools as unknown as AiSdkToolSet,
    refresh,
    prepareStep: () => ({ activeTools: refresh() as Array<keyof AiSdkToolSet> }),
  };
}
