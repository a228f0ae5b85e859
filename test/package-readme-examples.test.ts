// Every TypeScript block of a package README is the `readme` region of a compiled file in examples/package-readmes, so
// an API change that breaks a README example fails the type-check, and the README cannot drift from the file.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const examplesFolder = join(root, 'examples', 'package-readmes');

/** Each package's README examples, in the order its README shows them: `<package>/<topic>.ts`. */
const EXAMPLES: Record<string, string[]> = {
  'ai-sdk': ['tools-and-prepare-step', 'typed-tool-results'],
  anthropic: ['messages-api'],
  docker: ['docker-environment'],
  langchain: ['agent-middleware'],
  mcp: ['http-server'],
  openai: ['responses-api', 'agents-sdk-tools'],
  'openai-agents': ['sandbox-client'],
  ssh: ['ssh-environment'],
  testing: ['fake-host', 'scripted-answers'],
  toolhost: ['quickstart'],
};

/** Removes the indentation every non-blank line shares. */
function dedent(lines: string[]): string {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const common = Math.min(...indents);
  return lines.map((line) => line.slice(common)).join('\n');
}

/** The TypeScript code blocks of a markdown file, dedented, in order. */
function typeScriptBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const lines = markdown.split('\n');
  for (let start = 0; start < lines.length; start++) {
    const fence = /^(\s*)```(ts|typescript|tsx|mts|cts)\s*$/.exec(lines[start]);
    if (!fence) continue;
    const end = lines.findIndex((line, index) => index > start && line.trim() === '```');
    expect(end, `unclosed code block at line ${start + 1}`).toBeGreaterThan(start);
    blocks.push(dedent(lines.slice(start + 1, end)));
    start = end;
  }
  return blocks;
}

/** The text between `// #region readme` and `// #endregion readme`, dedented; the file must hold exactly one. */
function readmeRegion(file: string): string {
  const lines = readFileSync(file, 'utf8').split('\n');
  const starts = lines.flatMap((line, index) => (line.trim() === '// #region readme' ? [index] : []));
  const ends = lines.flatMap((line, index) => (line.trim() === '// #endregion readme' ? [index] : []));
  expect({ starts: starts.length, ends: ends.length }, file).toEqual({ starts: 1, ends: 1 });
  expect(ends[0], file).toBeGreaterThan(starts[0]);
  return dedent(lines.slice(starts[0] + 1, ends[0]));
}

const packages = readdirSync(join(root, 'packages')).filter((name) => existsSync(join(root, 'packages', name, 'README.md')));
const readmeOf = (name: string) => readFileSync(join(root, 'packages', name, 'README.md'), 'utf8');

describe('package README examples', () => {
  it('lists every package whose README has TypeScript blocks, and every example file', () => {
    const withBlocks = packages.filter((name) => typeScriptBlocks(readmeOf(name)).length > 0).sort();
    expect(withBlocks).toEqual(Object.keys(EXAMPLES).sort());
    const files = readdirSync(examplesFolder, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => path.split('\\').join('/'))
      .sort();
    const listed = Object.entries(EXAMPLES)
      .flatMap(([name, topics]) => topics.map((topic) => `${name}/${topic}.ts`))
      .sort();
    expect(files).toEqual(listed);
  });

  it.each(Object.entries(EXAMPLES))('packages/%s/README.md shows its examples verbatim', (name, topics) => {
    const regions = topics.map((topic) => readmeRegion(join(examplesFolder, name, `${topic}.ts`)));
    expect(typeScriptBlocks(readmeOf(name))).toEqual(regions);
  });
});
