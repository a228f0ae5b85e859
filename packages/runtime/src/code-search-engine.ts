import { codeSearchSchema } from '@toolhost/code-search/schema';
import type { CodeSearchEngine } from './tool-engines.js';

/** Settings of the code_search engine (a host's `codeSearch` option). */
export interface CodeSearchEngineOptions {
  // Written out, not CodeSearchToolOptions: a consumer's type check would otherwise load code-search's declarations
  // and, through them, web-tree-sitter's (which do not compile without skipLibCheck).
  index?: boolean | { cacheDir?: string | false; cacheLimits?: { maxAgeMs?: number; maxBytes?: number }; watch?: boolean };
}

/**
 * The code_search engine. Its schema comes from the code search package's schema entry; the rest of the package, the
 * parser setup included, is imported as the engine is built, so a host without code_search never loads it.
 */
export function createCodeSearchEngine(options: CodeSearchEngineOptions = {}): CodeSearchEngine {
  let closed = false;
  const loading = import('@toolhost/code-search').then(({ createCodeSearchTool }) => createCodeSearchTool({ index: options.index }));
  // A failed load answers the calls that need the engine; nothing else waits on it.
  loading.catch(() => undefined);
  return {
    name: 'code_search',
    schema: codeSearchSchema,
    prepare(workspace) {
      loading.then((tool) => !closed && tool.prepare(workspace)).catch(() => undefined);
    },
    async execute(args, context) {
      return (await loading).execute(args, context);
    },
    async close() {
      closed = true;
      const tool = await loading.catch(() => undefined);
      await tool?.close();
    },
  };
}
