import { jsonSchema, tool, type JSONSchema7, type Tool, type ToolSet } from 'ai';
import type { ToolDefinition, ToolHost, ToolResult } from 'toolhost';

/** The part of a tool host the AI SDK adapter uses (a real host or the fake one). */
export type AiSdkToolHost = Pick<ToolHost, 'tools' | 'call' | 'nextSegment'>;

/** Maps a host result to what the model sees: `text`, or `error-text` for a failed call. */
export function toModelOutput(result: ToolResult): { type: 'text'; value: string } | { type: 'error-text'; value: string } {
  return result.ok ? { type: 'text', value: result.output } : { type: 'error-text', value: result.output };
}

/** Wraps one host tool as an AI SDK tool; its JSON Schema passes through unchanged and the host validates the input. */
export function toAiSdkTool(host: Pick<ToolHost, 'call'>, definition: ToolDefinition): Tool<unknown, ToolResult> {
  return tool<unknown, ToolResult>({
    description: definition.description,
    inputSchema: jsonSchema<unknown>(definition.inputSchema as JSONSchema7),
    execute: (input) => host.call(definition.name, input),
    toModelOutput: ({ output }) => toModelOutput(output),
  });
}

/** The host's current tools as an AI SDK ToolSet; for deferred tools across steps use {@link createAiSdkTools}. */
export function toAiSdkTools(host: Pick<ToolHost, 'tools' | 'call'>): ToolSet {
  const tools: ToolSet = {};
  for (const definition of host.tools) tools[definition.name] = toAiSdkTool(host, definition);
  return tools;
}

/** A live ToolSet plus the `prepareStep` that keeps it in step with the host. */
export interface AiSdkTools {
  /** Every tool the host has shown so far; pass it as `tools` to generateText / streamText. */
  readonly tools: ToolSet;
  /**
   * Pass as `prepareStep`: each step is a new request segment, so it calls `host.nextSegment()`, adds the tools that
   * search_tools expanded to `tools` and limits the step to the host's current tools with `activeTools`. A function
   * property, not a method: it is meant to be passed on detached (`prepareStep: tools.prepareStep`).
   */
  readonly prepareStep: () => { activeTools: string[] };
  /** Starts a new request segment and returns the names of the tools now visible. */
  refresh(): string[];
}

/** Creates a ToolSet that grows when search_tools expands deferred catalog tools (visible from the next step on). */
export function createAiSdkTools(host: AiSdkToolHost): AiSdkTools {
  const tools: ToolSet = {};
  const sync = (definitions: ToolDefinition[]) => {
    for (const definition of definitions) if (!(definition.name in tools)) tools[definition.name] = toAiSdkTool(host, definition);
    return definitions.map((definition) => definition.name);
  };
  sync(host.tools);
  const refresh = () => sync(host.nextSegment());
  return {
    tools,
    refresh,
    prepareStep: () => ({ activeTools: refresh() }),
  };
}
