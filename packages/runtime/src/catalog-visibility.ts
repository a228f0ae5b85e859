import { ErrorCode, errorResult, type ToolDefinition, type ToolImplementation, type ToolResult } from '@toolhost/core';
import { createSearchToolsTool, type ToolCatalog } from '@toolhost/catalog';
import { catalogTool, type CatalogTool } from './catalog-tool.js';

/**
 * Which catalog tools the model sees: those not deferred, and the deferred ones search_tools found, from the request
 * segment after the one that found them.
 */
export interface CatalogVisibility {
  /** The search_tools tool: what it finds becomes pending, and callable at the next segment. */
  readonly searchTools: ToolImplementation;
  /** The catalog tool `name`, when the model may call it now. */
  callable(name: string): CatalogTool | undefined;
  /** The catalog tools visible now: those not deferred, then the expanded ones in the order they were found. */
  definitions(): ToolDefinition[];
  /** The catalog tools whose names are not in `visible`. */
  hidden(visible: ReadonlySet<string>): ToolDefinition[];
  /** The answer to a call of a tool the model may not call now; `visibleNames` lists what it may call. */
  notCallable(name: string, visibleNames: () => string[]): ToolResult;
  /** Forgets a tool removed from the catalog. */
  forget(name: string): void;
  /** Starts the next request segment: the tools search_tools found become callable. */
  nextSegment(): void;
}

/** Creates the visibility of `catalog`'s tools for one runtime. */
export function createCatalogVisibility(catalog: ToolCatalog): CatalogVisibility {
  const expanded: string[] = [];
  const pending: string[] = [];
  const searchTools = createSearchToolsTool({
    catalog,
    availability(name) {
      const entry = catalog.get(name);
      if (entry?.deferred === false || expanded.includes(name)) return 'callable';
      return pending.includes(name) ? 'pending' : 'hidden';
    },
    onMatched(names) {
      for (const name of names) if (!expanded.includes(name) && !pending.includes(name)) pending.push(name);
    },
  });
  const callable = (name: string) => {
    const entry = catalog.get(name);
    if (!entry) return undefined;
    if (entry.deferred !== false && !expanded.includes(name)) return undefined;
    return catalogTool(entry);
  };
  return {
    searchTools,
    callable,
    definitions() {
      const list: ToolDefinition[] = [];
      for (const entry of catalog.list()) if (entry.deferred === false) list.push(catalogTool(entry).definition);
      for (const name of expanded) {
        const tool = callable(name);
        if (tool && catalog.get(name)?.deferred !== false) list.push(tool.definition);
      }
      return list;
    },
    hidden(visible) {
      return catalog
        .list()
        .filter((entry) => !visible.has(entry.name))
        .map((entry) => catalogTool(entry).definition);
    },
    notCallable(name, visibleNames) {
      const entry = catalog.get(name);
      if (entry && pending.includes(name)) {
        return errorResult(ErrorCode.UnknownTool, `${name} was found by search_tools and becomes callable in the next request.`);
      }
      if (entry)
        return errorResult(
          ErrorCode.UnknownTool,
          `${name} is not loaded. Call search_tools with {"query":"${name}"} first; it becomes callable in the next request.`,
        );
      const names = visibleNames().join(', ');
      return errorResult(
        ErrorCode.UnknownTool,
        `No tool named ${JSON.stringify(String(name).slice(0, 100))}. Available tools: ${names}. Use search_tools to find others.`,
      );
    },
    forget(name) {
      for (const list of [expanded, pending]) {
        const index = list.indexOf(name);
        if (index >= 0) list.splice(index, 1);
      }
    },
    nextSegment() {
      for (const name of pending.splice(0)) if (!expanded.includes(name) && catalog.get(name)) expanded.push(name);
    },
  };
}
