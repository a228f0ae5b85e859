import type { DynamicStructuredTool } from '@langchain/core/tools';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import type { ToolDefinition, ToolHost } from 'toolhost';
import { toLangChainTool } from './to-langchain-tools.js';

/** The part of a tool host the middleware uses (a real host or the fake one). */
export type MiddlewareToolHost = Pick<ToolHost, 'tools' | 'call' | 'nextSegment' | 'catalog'>;

/**
 * A LangChain v1 agent middleware that gives `createAgent` the host's tools and keeps them current: every model call
 * starts a request segment (`host.nextSegment()`) and is offered the host's tools of that segment, so a tool that
 * search_tools loaded is offered to the next model call, and the tool node runs it through the host although it was
 * not in the agent's initial list. Give it to `createAgent` in `middleware`, without the host's tools in `tools`.
 *
 * @example
 * ```ts
 * import { createAgent } from 'langchain';
 * import { toolHostMiddleware } from '@toolhost/langchain';
 * import { createToolHost } from 'toolhost';
 *
 * const host = createToolHost({ workspace: '/abs/path/to/repo', catalog });
 * const agent = createAgent({ model, middleware: [toolHostMiddleware(host)] });
 * const state = await agent.invoke({ messages: [{ role: 'user', content: 'File an issue for the failing test.' }] });
 * await host.close();
 * ```
 */
export function toolHostMiddleware(host: MiddlewareToolHost): AgentMiddleware {
  // One LangChain tool a name: the agent refuses a tool that replaces a registered one by another instance.
  const made = new Map<string, DynamicStructuredTool>();
  const toolOf = (definition: ToolDefinition) => {
    let tool = made.get(definition.name);
    if (!tool) {
      tool = toLangChainTool(host, definition);
      made.set(definition.name, tool);
    }
    return tool;
  };
  const ours = (tool: unknown) => [...made.values()].includes(tool as DynamicStructuredTool);
  return createMiddleware({
    name: 'ToolHostMiddleware',
    tools: host.tools.map(toolOf),
    wrapModelCall: (request, handler) => {
      host.nextSegment();
      const others = request.tools.filter((tool) => !ours(tool));
      return handler({ ...request, tools: [...others, ...host.tools.map(toolOf)] });
    },
    wrapToolCall: (request, handler) => {
      if (request.tool) return handler(request);
      const name = request.toolCall.name;
      const definition = host.tools.find((candidate) => candidate.name === name);
      if (definition) return handler({ ...request, tool: toolOf(definition) });
      // A catalog tool not callable yet: the host's answer tells the model how to load it.
      const entry = host.catalog.get(name);
      if (entry)
        return handler({
          ...request,
          tool: toLangChainTool(host, { name, description: entry.description, inputSchema: { type: 'object' } }),
        });
      return handler(request);
    },
  });
}
