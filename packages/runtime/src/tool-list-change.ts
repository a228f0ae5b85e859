import type { ToolResult } from '@toolhost/core';

/** What a search_tools answer changed of the model's tool list. */
export interface ToolListChange {
  /** Deferred tools this search loaded: the tool list changes, and they join it from the next request segment. */
  readonly expanded: readonly string[];
  /** The tools the answer says are loaded for the next request (callable from then on), in its order. */
  readonly nextRequest: readonly string[];
  /** The tools the answer says are callable already, in its order. */
  readonly callable: readonly string[];
  /** Every match the model may call now or from the next request, in the answer's order (weak matches only listed are left out). */
  readonly offered: readonly string[];
  /** Whether the tool list changed, so a caller starts the next segment and offers the new list. */
  readonly changed: boolean;
}

function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
}

/** Reads a search_tools result as data: the tools it loaded, the ones already callable, and whether the list changed. */
export function toolListChange(result: ToolResult): ToolListChange {
  const data = result.ok ? (result.data ?? {}) : {};
  const matches = (Array.isArray(data.matches) ? data.matches : []) as Array<{ name?: unknown; available?: unknown }>;
  const named = (test: (available: unknown) => boolean) =>
    matches.filter((match) => test(match?.available)).flatMap((match) => (typeof match?.name === 'string' ? [match.name] : []));
  const expanded = names(data.expanded);
  return {
    expanded,
    nextRequest: named((available) => available === 'next_request'),
    callable: named((available) => available === 'now'),
    offered: named((available) => available !== 'not_loaded'),
    changed: expanded.length > 0,
  };
}
