/** The grammars code_search can parse. */
export type GrammarId = 'typescript' | 'tsx' | 'javascript' | 'python' | 'rust' | 'go' | 'java' | 'c' | 'cpp' | 'bash';

/** A file type `file_types` accepts: a language name, its aliases and its extensions. */
export interface LanguageInfo {
  readonly name: string;
  readonly aliases: readonly string[];
  /** Lower-case extensions without the dot; also exact base names such as `Makefile`. */
  readonly extensions: readonly string[];
  /** The grammar that classifies it; absent for text-only types. */
  readonly grammar?: GrammarId;
  /** True for programming languages without a grammar here (definitions and usages unavailable). */
  readonly codeWithoutGrammar?: boolean;
}

/** Every known file type, in the order they are listed to the model. */
export const LANGUAGES: readonly LanguageInfo[] = [
  { name: 'typescript', aliases: ['ts'], extensions: ['ts', 'mts', 'cts'], grammar: 'typescript' },
  { name: 'tsx', aliases: [], extensions: ['tsx'], grammar: 'tsx' },
  { name: 'javascript', aliases: ['js', 'jsx'], extensions: ['js', 'mjs', 'cjs', 'jsx'], grammar: 'javascript' },
  { name: 'python', aliases: ['py'], extensions: ['py', 'pyi'], grammar: 'python' },
  { name: 'rust', aliases: ['rs'], extensions: ['rs'], grammar: 'rust' },
  { name: 'go', aliases: ['golang'], extensions: ['go'], grammar: 'go' },
  { name: 'java', aliases: [], extensions: ['java'], grammar: 'java' },
  { name: 'c', aliases: [], extensions: ['c', 'h'], grammar: 'c' },
  {
    name: 'cpp',
    aliases: ['c++', 'cxx'],
    extensions: ['cpp', 'cc', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'ipp', 'tpp'],
    grammar: 'cpp',
  },
  { name: 'bash', aliases: ['sh', 'shell', 'zsh'], extensions: ['sh', 'bash', 'zsh'], grammar: 'bash' },
  { name: 'csharp', aliases: ['c#', 'cs'], extensions: ['cs'], codeWithoutGrammar: true },
  { name: 'ruby', aliases: ['rb'], extensions: ['rb'], codeWithoutGrammar: true },
  { name: 'php', aliases: [], extensions: ['php'], codeWithoutGrammar: true },
  { name: 'kotlin', aliases: ['kt'], extensions: ['kt', 'kts'], codeWithoutGrammar: true },
  { name: 'swift', aliases: [], extensions: ['swift'], codeWithoutGrammar: true },
  { name: 'scala', aliases: [], extensions: ['scala'], codeWithoutGrammar: true },
  { name: 'lua', aliases: [], extensions: ['lua'], codeWithoutGrammar: true },
  { name: 'css', aliases: ['scss', 'less'], extensions: ['css', 'scss', 'less'] },
  { name: 'html', aliases: [], extensions: ['html', 'htm', 'vue', 'svelte'] },
  { name: 'markdown', aliases: ['md'], extensions: ['md', 'markdown', 'mdx'] },
  { name: 'json', aliases: [], extensions: ['json', 'jsonc', 'json5'] },
  { name: 'yaml', aliases: ['yml'], extensions: ['yaml', 'yml'] },
  { name: 'toml', aliases: [], extensions: ['toml'] },
  { name: 'xml', aliases: [], extensions: ['xml', 'svg'] },
  { name: 'sql', aliases: [], extensions: ['sql'] },
  { name: 'text', aliases: ['txt'], extensions: ['txt', 'text', 'rst', 'adoc'] },
];

const BY_EXTENSION = new Map<string, LanguageInfo>();
const BY_NAME = new Map<string, LanguageInfo>();
for (const language of LANGUAGES) {
  for (const extension of language.extensions) if (!BY_EXTENSION.has(extension)) BY_EXTENSION.set(extension, language);
  BY_NAME.set(language.name, language);
  for (const alias of language.aliases) BY_NAME.set(alias, language);
}

/** The file type of a workspace path by its extension, or undefined when unknown. */
export function languageOfPath(path: string): LanguageInfo | undefined {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  if (dot <= 0) return undefined;
  return BY_EXTENSION.get(base.slice(dot + 1).toLowerCase());
}

/** Which extensions a `file_types` selection allows; `ok:false` lists the accepted values. */
export type FileTypeSelection = { ok: true; extensions: ReadonlySet<string> } | { ok: false; message: string };

/** Resolves `file_types` entries (language names, aliases, extensions with or without a dot) to extensions. */
export function resolveFileTypes(fileTypes: readonly string[]): FileTypeSelection {
  const extensions = new Set<string>();
  const unknown: string[] = [];
  for (const raw of fileTypes) {
    const value = raw.trim().toLowerCase();
    const bare = value.startsWith('*.') ? value.slice(2) : value.startsWith('.') ? value.slice(1) : value;
    const language = value.startsWith('.') || value.startsWith('*.') ? undefined : BY_NAME.get(bare);
    if (language) {
      for (const extension of language.extensions) extensions.add(extension);
      continue;
    }
    if (BY_EXTENSION.has(bare)) {
      extensions.add(bare);
      continue;
    }
    unknown.push(raw);
  }
  if (unknown.length > 0) {
    const names = LANGUAGES.map((language) => language.name).join(', ');
    const exts = [...BY_EXTENSION.keys()].join(', ');
    return {
      ok: false,
      message:
        `Unknown file_types ${unknown.map((value) => JSON.stringify(value)).join(', ')}. ` +
        `Use a language name (${names}) or an extension with or without a dot (${exts}).`,
    };
  }
  return { ok: true, extensions };
}

/** The lower-case extension of a path (without the dot), or '' when it has none. */
export function extensionOf(path: string): string {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot <= 0 ? '' : base.slice(dot + 1).toLowerCase();
}
