import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { classifyOccurrences, mayBeDeclarationName } from './classify-occurrences.js';
import { createSyntaxParser } from './grammar-loader.js';
import { extractIdentifiers, foldCase, foldedWordTokens } from './identifier-extractor.js';
import { languageOfPath, type GrammarId } from './language-table.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { SYNTAX_SPECS } from './syntax-spec.js';

const here = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return languageOfPath(path)?.grammar ? [path] : [];
  });
}

describe('extractIdentifiers', () => {
  const parser = createSyntaxParser();
  // The fixture covers every grammar; this package's own sources add real TypeScript.
  const files = [...sourceFiles(join(here, '__fixtures__')), ...sourceFiles(here).filter((path) => !path.includes('__fixtures__'))];

  it('classifies every occurrence of every word exactly as the per-query classification does', async () => {
    let compared = 0;
    for (const file of files) {
      const grammar = languageOfPath(file)!.grammar!;
      const text = readFileSync(file, 'utf8');
      const tree = (await parser.parse(grammar, text))!;
      const found = extractIdentifiers(SYNTAX_SPECS[grammar], tree, text);
      for (const token of foldedWordTokens(text)) {
        // Every spelling of the token in the file, searched as a query with that exact spelling.
        for (const spelling of new Set(
          text
            .match(new RegExp(`(?<![\\w\\u0080-\\uffff])[\\w\\u0080-\\uffff]+(?![\\w\\u0080-\\uffff])`, 'g'))
            ?.filter((word) => foldCase(word) === token),
        )) {
          const matcher = createLiteralMatcher(spelling);
          const starts = matcher.find(text);
          const expected = classifyOccurrences(SYNTAX_SPECS[grammar], tree, starts, spelling.length);
          // Smart case, as the index answers: exact names for a case-sensitive query, equal folds otherwise.
          const same = (name: string) => (matcher.caseSensitive ? name === spelling : foldCase(name) === foldCase(spelling));
          const byStart = new Map(found.filter((item) => same(item.name)).map((item) => [item.start, item.definition]));
          const actual = starts.map((start) => (byStart.has(start) ? (byStart.get(start) ? 'definition' : 'usage') : 'text'));
          expect(actual, `${relative(here, file)}: ${spelling}`).toEqual(expected);
          compared += starts.length;
        }
      }
      tree.delete();
    }
    expect(compared).toBeGreaterThan(1000);
  });

  it('never finds a definition where mayBeDeclarationName rules one out (fixtures, this package, tricky snippets)', async () => {
    const snippets: Array<[GrammarId, string, string[]]> = [
      [
        'typescript',
        'const [first, ...gadget] = list;\nconst { ...rest } = obj;\nfunction f(...args: number[]) { return obj.gadget; }\n',
        ['gadget', 'rest'],
      ],
      ['javascript', 'x = 1.\ngadget = 2\nlet a = 1. ; let gadget2 = 3\n', ['gadget2']],
      [
        'python',
        'x = 1.\ngadget = 2\nself.gadget = 3\n# done.\ndef gadget():\n    pass\na = chained = None\nreturn_ = not_ = 1\n',
        ['gadget', 'chained', 'not_'],
      ],
      ['go', 'package p\n\nfunc f() { r := NewGadget(); x = NewGadget; go NewGadget(); defer NewGadget(); return NewGadget }\n', ['r']],
      ['java', 'class A { go gadget; int b = gadget; Object c = new Gadget(); }\n', ['gadget', 'b', 'c']],
      ['go', 'package p\n\n// Reads.\nfunc NewGadget() {}\nvar g = x.\n\tNewGadget\n', ['NewGadget']],
      [
        'rust',
        'fn from_gadget() {}\nfn main() { let v = std::str::from_gadget(b); v.from_gadget(); let [a, ..] = x; }\nmacro_rules! weak { ($name:ident) => { static $name: *const libc::c_void; } }\n',
        ['from_gadget', 'v'],
      ],
      ['cpp', 'struct Gadget { void run(); };\nvoid Gadget::run() {}\nvoid go(Gadget* g) { g->run(); g . run(); }\n', ['Gadget', 'run']],
      ['c', 'struct S { int run; };\nvoid go(struct S *s) { s->run = 1; s . run = 2; }\n', ['S', 'run']],
      ['bash', 'gadget() { echo; }\n. gadget\nname=1\n', ['gadget', 'name']],
      // Names in strings and comments, and after Python's floor division, next to real declarations.
      [
        'go',
        'package p\n\n// NewGadget makes one.\nfunc NewGadget() {}\n\nfunc f(a, b int) string { /* NewGadget */ _ = a // NewGadget\n\treturn "NewGadget: " + "x" }\n',
        ['NewGadget'],
      ],
      ['rust', '/// gadget docs\nfn gadget() {}\n//! gadget\nfn f() { let s = "gadget"; /* gadget */ let t = 1; }\n', ['gadget', 's', 't']],
      ['python', 'def gadget(a, /, *b):\n    pass\nx = 7 // gadget\ny = "gadget"\nz = """gadget"""\n', ['gadget', 'x', 'y', 'z']],
      [
        'typescript',
        'function gadget() {}\nconst s = "gadget"; // gadget\n/* gadget */ const t = { "a": 1, gadget: 2 };\n',
        ['gadget', 's', 't'],
      ],
      ['tsx', 'const v = <A b="x" gadget={1} />; // gadget\nfunction gadget() {}\n', ['gadget', 'v']],
      ['java', 'class A { void gadget() {} String s = "gadget"; /* gadget */ int t; }\n', ['gadget', 's', 't']],
      // Declarations beside the places the rules rule out: targets in brackets, after `:` or `*`, comment markers in strings.
      [
        'python',
        'from m import (\n    gadget, other,\n)\n(\n    first,\n    second,\n) = pair\n[left, right] = pair\n*rest, = items\nif ok: inline = 1\nx = "#"; after = 2\nannotated: int\na = b = chained = None\ntype Alias = int\ncall(gadget, key=gadget)\n',
        ['first', 'second', 'left', 'right', 'inline', 'after', 'annotated', 'chained', 'Alias'],
      ],
      // Joined lines: the name follows the end of the line before, unless that line may end in a comment.
      [
        'python',
        'a = \\\n    joined = 1\nx = 1  # see \\\ncommented = 2\ndef \\\n    spread(): pass\n',
        ['a', 'joined', 'x', 'commented', 'spread'],
      ],
      [
        'go',
        'package p\n\nvar (a, gadget = 1, 2)\ntype I interface{ NewGadget() }\ntype S struct{ a, gadget int }\nfunc f(x int) {\n\tfor i, item := range xs {\n\t}\n\tswitch {\n\tdefault: c, d := 1, 2\n\t}\n\ts := "//"; after := 1\n\tvar u /* c */ , w int\n\tio.Copy(&buf, NewGadget(s))\n}\n',
        ['a', 'gadget', 'NewGadget', 'c', 'd', 'after', 'w'],
      ],
      [
        'rust',
        'use a::{gadget, other};\nenum E { A, Gadget(u8) }\nfn f() {\n    let ((tx1, rx1), (tx2, rx2)) = pair;\n    let (mut a, ref b) = pair;\n    let s = "//"; let after = 1;\n    assert!((gadget(x)));\n}\nmacro_rules! gadget { () => {} }\n',
        ['Gadget', 'tx1', 'rx1', 'tx2', 'rx2', 'a', 'b', 'after', 'gadget'],
      ],
      [
        'rust',
        'pub struct\n    Gadget<T> { inner: Vec<T>, }\nfn f(buf: &mut Vec<u8>) -> Vec<u8> {\n    let mut out: Vec<u8> = Vec::new();\n    let (left, (mid, right)): (Vec<u8>, (u8, u8)) = g();\n}\n',
        ['Gadget', 'inner', 'out', 'left', 'mid', 'right'],
      ],
      // Lines longer than the rules read of them (a minified file's).
      ['python', `${'a = 1; '.repeat(700)}gadget = 2; (first, second) = pair\n`, ['gadget', 'first', 'second']],
      ['go', `package p\n\n${'var a = 1; '.repeat(500)}var (b, gadget = 1, 2); func f() { x, y := 1, 2 }\n`, ['gadget', 'x', 'y']],
      ['rust', `${'const A: u8 = 1; '.repeat(300)}fn f() { let (a, gadget) = pair; }\n`, ['a', 'gadget']],
    ];
    const checked = { definitions: 0, ruledOut: 0 };
    const check = (grammar: GrammarId, text: string, tree: NonNullable<Awaited<ReturnType<typeof parser.parse>>>, label: string) => {
      for (const found of extractIdentifiers(SYNTAX_SPECS[grammar], tree, text)) {
        const possible = mayBeDeclarationName(text, found.start, found.name.length, grammar);
        if (found.definition) {
          checked.definitions++;
          expect(possible, `${label}: definition ${found.name} at ${found.start}`).toBe(true);
        } else if (!possible) checked.ruledOut++;
      }
    };
    for (const file of files) {
      const grammar = languageOfPath(file)!.grammar!;
      const text = readFileSync(file, 'utf8');
      const tree = (await parser.parse(grammar, text))!;
      check(grammar, text, tree, relative(here, file));
      tree.delete();
    }
    for (const [grammar, text, definitions] of snippets) {
      const tree = (await parser.parse(grammar, text))!;
      check(grammar, text, tree, `${grammar} snippet`);
      const found = extractIdentifiers(SYNTAX_SPECS[grammar], tree, text);
      for (const name of definitions)
        expect(
          found.some((item) => item.name === name && item.definition),
          `${grammar}: ${name} is a definition`,
        ).toBe(true);
      tree.delete();
    }
    expect(checked.definitions).toBeGreaterThan(500);
    expect(checked.ruledOut).toBeGreaterThan(500);
    // In a string, a comment or after Python's floor division: ruled out where the grammar allows it. Not ruled out: JSX
    // attributes follow a quote, Python's `*` may start a starred target, Bash and C are left to the parse.
    for (const [grammar, text, possible] of [
      ['go', 'x := "gadget"', false],
      ['go', 'x := 1 // gadget', false],
      ['rust', '/* gadget */', false],
      ['java', 's = "gadget";', false],
      ['typescript', 'const s = "gadget";', false],
      ['javascript', '// gadget', false],
      ['python', 'x = 7 // gadget', false],
      ['python', 'y = "gadget"', false],
      ['javascript', '<A b="x" gadget />', true],
      ['tsx', '<A b="x" gadget />', true],
      ['python', 'a /*gadget', true],
      ['bash', 'echo "gadget', true],
      ['c', '// gadget', true],
      // Later on the line than a comment marker, with no quote between: in a comment, or in a string still open.
      ['rust', '/// See [`gadget`]', false],
      ['go', 'x := 1 // calls "a" then gadget', true],
      ['go', 'x := "//" + gadget', true],
      ['go', 's := "//"; gadget := 1', true],
      ['python', 'x = 1  # then gadget', false],
      ['python', 'x = "#"; gadget = 1', true],
      // Go: in a one-line string.
      ['go', 't.Errorf("%s: gadget: %s", err)', false],
      ['go', "c := '\"'; gadget := 1", true],
      // Go and Rust: arguments, expression lists and imports.
      ['go', 'io.Copy(&buf, gadget(s))', false],
      ['go', 'f(gadget)', false],
      ['go', 'var (gadget = 1)', true],
      ['go', 'x := T{gadget(s)}', false],
      ['go', 'type I interface{ gadget() }', true],
      ['go', 'a[0], gadget := 1, 2', true],
      ['rust', 'assert!((!gadget(x)));', false],
      ['rust', 'assert!((gadget(x)));', false],
      ['rust', 'push(a, gadget(x));', false],
      ['rust', 'let (a, gadget) = pair;', true],
      ['rust', 'use std::str::{gadget, other};', false],
      ['rust', 'enum E { A, gadget(u8) }', true],
      ['rust', 'match gadget(x) {', false],
      ['rust', 'macro_rules! gadget {', true],
      ['rust', 'fn f(x: gadget<u8>) -> gadget<u8> {', false],
      ['rust', 'let v: Vec<gadget> = x.collect::<gadget<_>>();', false],
      ['rust', 'fn f(buf: &mut gadget) {}', false],
      ['rust', "fn f<'a>(buf: &'a mut gadget) {}", false],
      ['rust', 'let p = x as *mut gadget;', false],
      ['rust', 'let v: [gadget; 2] = y;', false],
      ['rust', 'let v = box gadget::new();', false],
      ['rust', 'let (a, b): (gadget, u8) = pair;', false],
      ['rust', 'let mut gadget = 1;', true],
      ['rust', 'pub struct gadget<T> {', true],
      ['rust', 'pub struct\n    gadget<T> {', true],
      ['rust', '    gadget<String>,', true],
      ['rust', 'let (a, (b, gadget)) = pair;', true],
      // Python: a declaration follows `def`, `class`, `type` or punctuation, and comes before `=`, `:`, `,`, a closing
      // bracket or the end of its line.
      ['python', 'from m import gadget', false],
      ['python', 'import gadget', false],
      ['python', 'from m import (\n    a, gadget,\n)', false],
      ['python', 'x = gadget(1)', false],
      ['python', 'gadget(1)', false],
      ['python', 'gadget.x = 1', false],
      ['python', 'gadget[0] = 1', false],
      ['python', 'gadget += 1', false],
      ['python', 'if gadget == 1:', false],
      ['python', 'f(a, gadget)', false],
      ['python', 'x[a, gadget] = 1', false],
      ['python', "d = {'gadget': 1}", false],
      ['python', 'a != gadget', false],
      ['python', '(y := gadget)', false],
      ['python', 'def gadget(x):', true],
      ['python', 'class gadget(Base):', true],
      ['python', 'gadget = 1', true],
      ['python', 'gadget: int', true],
      ['python', 'a, gadget = pair', true],
      ['python', '(\n    a,\n    gadget,\n) = pair', true],
      ['python', '# from m import (\na, gadget = pair', true],
      ['python', 'def \\\n    gadget(x):', true],
      // A joined line continues the one before: its end is what the name follows.
      ['python', 'a, b = \\\n    gadget(x)', false],
      ['python', 'a = \\\n  b = \\\n    gadget = 1', true],
      ['python', 'f(a, \\\n    gadget)', false],
      ['python', 'x = 1  # a comment \\\ngadget(x)', true],
      ['python', '\\\ngadget(x)', true],
    ] as Array<[GrammarId, string, boolean]>) {
      expect(mayBeDeclarationName(text, text.indexOf('gadget'), 'gadget'.length, grammar), `${grammar}: ${text}`).toBe(possible);
    }
  });
});

describe('mayBeDeclarationName', () => {
  it('rules out member access and paths, keeps rest patterns, and leaves C and C++ to the parse', () => {
    const at = (text: string, grammar = 'typescript') => mayBeDeclarationName(text, text.lastIndexOf('name'), 'name'.length, grammar);
    expect([
      at('x.name'),
      at('x . name'),
      at('x?.name'),
      at('a.name', 'go'),
      at('a::name', 'rust'),
      at('a::name', 'java'),
      at('self.name', 'python'),
    ]).toEqual(Array(7).fill(false));
    expect([
      at('...name'),
      at('a::name', 'cpp'),
      at('s.name', 'c'),
      at('p->name', 'cpp'),
      at('name'),
      at('x.\nname'),
      at('let name'),
      at('a > name'),
      at('a: name'),
      at('name::f()', 'rust'),
      at('name: u8', 'rust'),
    ]).toEqual(Array(11).fill(true));
  });

  it('rules out values after an assignment, a comparison or a value keyword, where the language cannot declare there', () => {
    const at = (text: string, grammar = 'typescript') => mayBeDeclarationName(text, text.lastIndexOf('name'), 'name'.length, grammar);
    const values = [
      at('x = name'),
      at('a === name'),
      at('x := name', 'go'),
      at('return name', 'go'),
      at('go name()', 'go'),
      at('new name()'),
      at('await name'),
      at('not name', 'python'),
      at('return name', 'rust'),
      at('int x = name', 'java'),
    ];
    expect(values).toEqual(Array(values.length).fill(false));
    // Python declares every target of a chained assignment; Bash's a=name is one word; `go` is a Java type name.
    const names = [
      at('a = name = None', 'python'),
      at('a=name', 'bash'),
      at('go name', 'java'),
      at('return_ name'),
      at('x = (name)'),
      at('a = [name, b]', 'python'),
    ];
    expect(names).toEqual(Array(names.length).fill(true));
  });
});

describe('foldCase', () => {
  it('treats two spellings as equal exactly when a case-insensitive literal matches one against the other', () => {
    const pairs: Array<[string, string]> = [
      ['gadget', 'GADGET'],
      ['straße', 'STRASSE'],
      ['σ', 'ς'],
      ['k', '\u212a'],
      ['Ölfeld', 'öLFELD'],
    ];
    for (const [a, b] of pairs)
      expect(foldCase(a) === foldCase(b), `${a} ~ ${b}`).toBe(
        createLiteralMatcher(a.toLowerCase()).find(b).length === 1 && a.length === b.length,
      );
  });
});
