import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyOccurrences, type OccurrenceKind } from './classify-occurrences.js';
import { createSyntaxParser } from './grammar-loader.js';
import type { GrammarId } from './language-table.js';
import { hasLexicalKinds, lexicalKinds } from './lexical-kinds.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

const here = dirname(fileURLToPath(import.meta.url));
const polyglot = join(here, '__fixtures__', 'polyglot');

/** Every word of `text`, grouped by length (the kinds of one call share a length, as a query's occurrences do). */
function wordsByLength(text: string): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const match of text.matchAll(/[A-Za-z_\u0080-\uffff][\w\u0080-\uffff]*/g)) {
    const starts = groups.get(match[0].length) ?? [];
    starts.push(match.index);
    groups.set(match[0].length, starts);
  }
  return groups;
}

/** Snippets that sit where a lexical scan is easiest to get wrong. */
const SNIPPETS: Array<[GrammarId, string]> = [
  [
    'go',
    [
      'package p',
      '// name in a comment "with a quote',
      '/* name in a block',
      '   comment */ var name = `raw name',
      'over two lines` + "name \\" still in" + string(\'"\') + name',
      "func f() rune { r := '\\''; s := \"a\" /* name */ + name; return r }",
      'const c = 1.i + 0x1p4; var _ = name',
      'func g() { goto done; done: name() }',
      'type T struct { name int }',
      'func (t *T) name() bool { return t.name == 0 }',
      'var fs = []func(r rune) bool{',
      '\tfunc(r rune) bool { return r == 0 },',
      '}',
      'type name interface{ name() }',
      'func h() (int, error) {',
      '\tname, err := h()',
      '\tname = 2',
      '\tfor name := range []int{} {',
      '\t\t_ = name',
      '\t}',
      '\treturn name, err',
      '}',
    ].join('\n') + '\n',
  ],
  [
    'rust',
    [
      '//! name in an inner doc comment',
      '/* outer /* nested name */ still name */ fn f() -> u8 { name(b"name", br#"name " still"#, r"name", c"name") }',
      "fn g<'name>(x: &'name str) -> char { let c = '\"'; let d = '\\''; let e = b'n'; 'outer: loop { break 'outer; } name(c) }",
      'macro_rules! m { ($name:expr, $x: ident) => { $name + name::f($x) }; }',
      'fn h() { let t = (1, (2, 3)); let _ = t.1.0; r#name(); r#"raw name"#; }',
      '/// A doc comment: the name of `name`',
      'pub struct S { name: Vec<u8> }',
      "fn i() { let s = \"name\nover lines\"; let c = '\\u{1F600}'; let d = '😀'; name(s, c, d) }",
      'pub(crate) const unsafe fn name<',
      '    const N: usize,',
      '>() -> usize {',
      '    let name = N;',
      '    let std::ops::Range { start, end } = 0..name;',
      '    if let name = start { name } else { end }',
      '}',
      'macro_rules! name { () => { fn name() {} }; }',
      '#[cfg(name)]',
      'pub static mut NAME: u8 = 0;',
      'extern "C" { static NAME: u8; fn name(); }',
    ].join('\n') + '\n',
  ],
  [
    'python',
    [
      '# name in a comment "with a quote',
      'x = "name # not a comment" + name',
      "y = b'name' + rb'\\d name' + u'name' + R\"name\" + name",
      'z = """name',
      '  name \\""" still""" + name',
      "w = f'{name} and {name!r:>{width}} {{name}}' + f\"{d['name']}\" + name",
      "v = rf'\\d{name}' + t'{name}' + name",
      'def f(name=name):',
      '    return name(name, key=name)',
      'print(name); type(name); match = name; _ = name',
      'from __future__ import annotations',
      'async def name(): pass',
      'class name(name): pass',
      'NAME = 1',
      'class C:',
      '    annotated: int = 2',
      '    bare: "C"',
      '    call(',
      '        keyword=1,',
      '    )',
      '    a = \\',
      '        b = 1',
      '    d = {',
      '        "k": name,',
      '    }',
    ].join('\n') + '\n',
  ],
];

describe('lexicalKinds', () => {
  const parser = createSyntaxParser();

  it('agrees with the parse wherever it decides, on every word of the fixtures and of tricky snippets, and decides most', async () => {
    const sources: Array<[GrammarId, string]> = [
      ['go', readFileSync(join(polyglot, 'native', 'gadget.go'), 'utf8')],
      ['rust', readFileSync(join(polyglot, 'native', 'gadget.rs'), 'utf8')],
      ['python', readFileSync(join(polyglot, 'src', 'gadget.py'), 'utf8')],
      ...SNIPPETS,
    ];
    const decidedPerGrammar = new Map<GrammarId, { words: number; decided: number }>();
    const disagreements: string[] = [];
    for (const [grammar, text] of sources) {
      const tree = (await parser.parse(grammar, text))!;
      // Valid code: where the parse recovers from errors, the two may differ (see below).
      expect(tree.rootNode.hasError, text).toBe(false);
      const counts = decidedPerGrammar.get(grammar) ?? { words: 0, decided: 0 };
      for (const [length, starts] of wordsByLength(text)) {
        const lexical = lexicalKinds(text, starts, length, grammar);
        const parsed = classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, length);
        starts.forEach((start, at) => {
          counts.words++;
          if (lexical[at] === undefined) return;
          counts.decided++;
          if (lexical[at] !== parsed[at])
            disagreements.push(`${grammar} ${text.slice(start, start + length)}@${start}: ${lexical[at]} vs ${parsed[at]}`);
        });
      }
      decidedPerGrammar.set(grammar, counts);
      tree.delete();
    }
    expect(disagreements).toEqual([]);
    for (const [grammar, { words, decided }] of decidedPerGrammar) expect(decided / words, grammar).toBeGreaterThan(0.4);
  });

  it.each<[GrammarId, string, string, Array<OccurrenceKind | undefined>]>([
    ['go', 'x := name + f(name) // name', 'name', ['usage', 'usage', 'text']],
    ['go', 'var s = "a \\" name" + `name`', 'name', ['text', 'text']],
    ['go', 'name := 1', 'name', ['definition']],
    ['go', 'goto name', 'name', [undefined]],
    ['go', 'x := 1.i + f(i) + 0Xdead.cafep1 + t.cafep1', 'i', [undefined, 'usage']],
    ['go', 'x := 0Xdead.cafep1 + t.cafep1', 'cafep1', [undefined, 'usage']],
    ['rust', 'let x = name(b"name", r#"name"#); // name', 'name', ['usage', 'text', 'text', 'text']],
    ['rust', "fn f<'name>() { let c = 'n'; }", 'name', [undefined]],
    ['rust', "let c = 'n'; f(n)", 'n', ['text', 'usage']],
    ['rust', 'macro_rules! m { ($e:expr) => { $e.expr() } }', 'expr', [undefined, 'usage']],
    ['rust', 'r#name(); x::name()', 'name', [undefined, 'usage']],
    ['rust', 'let x: str = self.str;', 'str', [undefined, undefined]],
    ['python', 'x = f"{name}" + name  # name', 'name', [undefined, 'usage', 'text']],
    ['python', "x = rb'name' + '''\nname''' + name", 'name', ['text', 'text', 'usage']],
    ['python', 'name = 1\nname: int = 2\nname += 1\nif name == 1: pass', 'name', ['definition', 'definition', 'usage', 'usage']],
    ['python', 'f(\n    name=1,\n)\nx = \\\n    name = 1', 'name', ['usage', undefined]],
    ['python', 'def name(): return name()\n# def name', 'name', ['definition', 'usage', 'text']],
    ['go', 'func (r *T) name() {}\nfunc name() {}\nvar name = 1', 'name', ['definition', 'definition', 'definition']],
    [
      'go',
      'func f() {\n\tname := 1\n\tname, err := g()\n\tname = 2\n\tfor name := range xs {}\n}',
      'name',
      ['definition', 'definition', undefined, undefined],
    ],
    ['go', 'x := []func() name{\nfunc() name { return nil },\n}', 'name', [undefined, undefined]],
    [
      'rust',
      'pub fn name() {}\nm! { fn name() {} }\nlet name = 1;\nlet name == 1;',
      'name',
      ['definition', undefined, 'definition', undefined],
    ],
    ['rust', 'fn f<\n    const NAME: usize,\n>() {}\nconst NAME: usize = 1;', 'NAME', [undefined, 'definition']],
    ['python', 'print(print)', 'print', [undefined, undefined]],
    ['python', 'x = `name` + f(name)', 'name', [undefined, 'usage']],
    ['python', 'unclosed = "name\nname', 'name', [undefined, undefined]],
  ])('%s %j: %s is %j', (grammar, text, query, expected) => {
    const starts = [...text.matchAll(new RegExp(query, 'g'))].map((match) => match.index);
    expect(lexicalKinds(text, starts, query.length, grammar)).toEqual(expected);
  });

  it('keeps a comment as text where the parse, recovering from an error, takes it for code', async () => {
    // A stray closing brace (here the end of a `pub macro`, syntax the grammar does not know) makes the parse read the doc
    // comment's words as identifiers.
    const text =
      '}\n\n/// An internal trait, see `panic_unwind`\n/// and other panic runtimes. Not intended to be stable, do\n/// not use.\npub trait T {}\n';
    const starts = [text.indexOf('intended')];
    const tree = (await parser.parse('rust', text))!;
    expect(tree.rootNode.hasError).toBe(true);
    expect(classifyOccurrences(SYNTAX_SPECS.rust, tree, starts, 'intended'.length)).toEqual(['usage']);
    tree.delete();
    expect(lexicalKinds(text, starts, 'intended'.length, 'rust')).toEqual(['text']);
  });

  it('leaves other grammars to the parse', () => {
    expect(hasLexicalKinds('typescript')).toBe(false);
    expect(hasLexicalKinds(undefined)).toBe(false);
    expect(lexicalKinds('name(name)', [0, 5], 4, 'typescript')).toEqual([undefined, undefined]);
  });
});
