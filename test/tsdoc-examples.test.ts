// Every TSDoc @example in the packages' sources is the `example` region of a compiled file in examples/tsdoc, so an API
// change that breaks a doc example fails the type-check, and the comment cannot drift from the file.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const examplesFolder = join(root, 'examples', 'tsdoc');

/** One documented symbol's @example blocks and the file that compiles them: `<package>/<kebab-case symbol>.ts`. */
interface DocExample {
  source: string;
  symbol: string;
  file: string;
  blocks: string[];
}

/** Removes the indentation every non-blank line shares. */
function dedent(lines: string[]): string {
  const indents = lines.filter((line) => line.trim() !== '').map((line) => /^ */.exec(line)![0].length);
  const common = Math.min(...indents);
  return lines.map((line) => line.slice(common)).join('\n');
}

/** The code of each @example in a doc comment's lines (without their leading ` * `), fences removed, in order. */
function exampleBlocks(commentLines: string[], where: string): string[] {
  const blocks: string[] = [];
  commentLines.forEach((line, index) => {
    if (!line.startsWith('@example')) return;
    const start = index + 1;
    expect(commentLines[start], `${where}: an @example opens a \`\`\`ts block`).toMatch(/^```(ts|typescript)\s*$/);
    const end = commentLines.findIndex((candidate, at) => at > start && candidate.trim() === '```');
    expect(end, `${where}: unclosed @example block`).toBeGreaterThan(start);
    blocks.push(dedent(commentLines.slice(start + 1, end)));
  });
  return blocks;
}

/** Every doc comment with an @example in one source file, with the exported symbol it documents. */
function examplesOf(packageName: string, relativePath: string): DocExample[] {
  const source = `packages/${packageName}/src/${relativePath}`;
  const lines = readFileSync(join(root, source), 'utf8').split('\n');
  const found: DocExample[] = [];
  for (let start = 0; start < lines.length; start++) {
    if (lines[start].trim() !== '/**') continue;
    const end = lines.findIndex((line, index) => index > start && line.trim() === '*/');
    const commentLines = lines.slice(start + 1, end).map((line) => line.replace(/^\s*\* ?/, ''));
    start = end;
    if (!commentLines.some((line) => line.includes('@example'))) continue;
    const declaration = /^export (?:declare )?(?:async )?(?:abstract )?(?:function\*?|const|let|class|interface|type|enum) (\w+)/.exec(
      lines[end + 1] ?? '',
    );
    expect(declaration, `${source}:${end + 2}: a comment with an @example documents an exported declaration`).not.toBeNull();
    const symbol = declaration![1];
    const kebab = symbol.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
    found.push({ source, symbol, file: `${packageName}/${kebab}.ts`, blocks: exampleBlocks(commentLines, `${source}:${start + 1}`) });
  }
  return found;
}

/** The texts between `// #region example` and `// #endregion example`, dedented, in order. */
function exampleRegions(file: string): string[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const starts = lines.flatMap((line, index) => (line.trim() === '// #region example' ? [index] : []));
  const ends = lines.flatMap((line, index) => (line.trim() === '// #endregion example' ? [index] : []));
  expect(ends.length, file).toBe(starts.length);
  return starts.map((start, index) => {
    expect(ends[index], file).toBeGreaterThan(start);
    return dedent(lines.slice(start + 1, ends[index]));
  });
}

const sources = readdirSync(join(root, 'packages')).flatMap((packageName) =>
  readdirSync(join(root, 'packages', packageName, 'src'), { recursive: true, encoding: 'utf8' })
    .map((path) => path.split('\\').join('/'))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.split('/').includes('__fixtures__'))
    .map((path) => ({ packageName, path })),
);
const examples = sources.flatMap(({ packageName, path }) => examplesOf(packageName, path));

describe('TSDoc examples', () => {
  it('reads every @example of the sources, and each has its compiled file', () => {
    const tags = sources
      .map(({ packageName, path }) => readFileSync(join(root, 'packages', packageName, 'src', path), 'utf8'))
      .reduce((count, text) => count + (text.match(/^\s*\* @example\b/gm) ?? []).length, 0);
    expect(examples.flatMap((example) => example.blocks)).toHaveLength(tags);
    expect(tags).toBeGreaterThanOrEqual(14);
    const files = readdirSync(examplesFolder, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.ts'))
      .map((path) => path.split('\\').join('/'))
      .sort();
    expect(files).toEqual(examples.map((example) => example.file).sort());
  });

  it.each(examples.map((example) => [`${example.source} ${example.symbol}`, example] as const))(
    '%s shows its compiled examples verbatim',
    (_, example) => {
      expect(example.blocks).toEqual(exampleRegions(join(examplesFolder, example.file)));
    },
  );
});
