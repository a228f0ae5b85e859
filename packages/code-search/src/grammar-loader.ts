import type { Language, Parser, Tree } from 'web-tree-sitter';
import type { GrammarId } from './language-table.js';

/** Where each grammar's .wasm lives inside installed npm packages. */
export const GRAMMAR_WASM_FILES: Readonly<Record<GrammarId, string>> = {
  typescript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm',
  tsx: '@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm',
  javascript: '@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm',
  python: '@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm',
  rust: '@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm',
  go: '@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm',
  java: '@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm',
  c: 'tree-sitter-c/tree-sitter-c.wasm',
  cpp: '@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm',
  bash: '@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm',
};

/** Supplies a grammar's wasm as a file path or bytes. */
export type GrammarSource = (grammar: GrammarId) => Promise<string | Uint8Array>;

/** Resolves grammar wasm files from the installed npm packages (Node only; imported lazily). */
export const nodeGrammarSource: GrammarSource = async (grammar) => {
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  return require.resolve(GRAMMAR_WASM_FILES[grammar]);
};

/** Parses source text with lazily loaded tree-sitter grammars. */
export interface SyntaxParser {
  /** Parses `text`; undefined when the grammar cannot be loaded (the error is kept in `failures`). */
  parse(grammar: GrammarId, text: string): Promise<Tree | undefined>;
  /** Grammars that failed to load, with the reason. */
  readonly failures: ReadonlyMap<GrammarId, string>;
  dispose(): void;
}

let runtime: Promise<typeof import('web-tree-sitter')> | undefined;

/** web-tree-sitter, initialised once per process (or worker thread). */
function loadRuntime(): Promise<typeof import('web-tree-sitter')> {
  runtime ??= import('web-tree-sitter').then(async (module) => {
    await module.Parser.init();
    return module;
  });
  return runtime;
}

/** Starts loading web-tree-sitter in the background, so the first parse does not wait for it. */
export function warmSyntaxRuntime(): void {
  loadRuntime().catch(() => undefined);
}

interface LoadedGrammars {
  languages: Map<GrammarId, Promise<Language | undefined>>;
  failures: Map<GrammarId, string>;
}

/** Grammars already loaded, per source: every parser of the process shares them, so each grammar loads once. */
const loadedBySource = new WeakMap<GrammarSource, LoadedGrammars>();

/** Creates a parser that loads web-tree-sitter and each grammar on first use (once per process for a given source). */
export function createSyntaxParser(source: GrammarSource = nodeGrammarSource): SyntaxParser {
  let parser: Parser | undefined;
  let loaded = loadedBySource.get(source);
  if (!loaded) {
    loaded = { languages: new Map(), failures: new Map() };
    loadedBySource.set(source, loaded);
  }
  const { languages, failures } = loaded;

  const language = (grammar: GrammarId): Promise<Language | undefined> => {
    let pending = languages.get(grammar);
    if (!pending) {
      pending = (async () => {
        try {
          const module = await loadRuntime();
          const wasm = await source(grammar);
          return await module.Language.load(wasm);
        } catch (error) {
          const reason = error instanceof Error ? error.message || error.stack || String(error) : String(error);
          failures.set(grammar, reason);
          return undefined;
        }
      })();
      languages.set(grammar, pending);
    }
    return pending;
  };

  return {
    failures,
    async parse(grammar, text) {
      const lang = await language(grammar);
      if (!lang) return undefined;
      const module = await loadRuntime();
      parser ??= new module.Parser();
      parser.setLanguage(lang);
      return parser.parse(text) ?? undefined;
    },
    dispose() {
      parser?.delete();
      parser = undefined;
    },
  };
}
