#!/usr/bin/env node
// Lists every function, arrow function, method and accessor in packages/*/src (tests left out) longer than a number of
// lines, measured from the syntax tree, so a factory's closure counts as one long function. Exits 1 when any is listed.
// Usage: node scripts/function-lengths.mjs [max lines, default 120]
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const DEFAULT_MAX_LINES = 120;
const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const argument = process.argv[2];
const maxLines = argument === undefined ? DEFAULT_MAX_LINES : Number(argument);
if (!Number.isInteger(maxLines) || maxLines < 1) {
  console.error(`usage: node scripts/function-lengths.mjs [max lines, a positive integer; default ${DEFAULT_MAX_LINES}]`);
  process.exit(2);
}

/** Source files of every package's src/, without tests and declaration files. */
function sourceFiles() {
  const packages = join(root, 'packages');
  const found = [];
  for (const name of readdirSync(packages).sort()) {
    let entries;
    try {
      entries = readdirSync(join(packages, name, 'src'), { recursive: true, withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      if (!entry.isFile() || !entry.name.endsWith('.ts') || entry.name.endsWith('.test.ts') || entry.name.endsWith('.d.ts')) continue;
      found.push(join(entry.parentPath, entry.name));
    }
  }
  return found.sort();
}

/** What a reader calls the function: its own name, or that of the variable, property or class member holding it. */
function nameOf(node) {
  if (ts.isConstructorDeclaration(node)) return `${node.parent.name?.text ?? '<class>'}.constructor`;
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) {
    const owner = ts.isClassLike(node.parent) ? `${node.parent.name?.text ?? '<class>'}.` : '';
    return `${owner}${node.name.text}`;
  }
  const holder = node.parent;
  if (
    (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) &&
    ts.isIdentifier(holder.name)
  ) {
    return holder.name.text;
  }
  return '<anonymous>';
}

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.FunctionExpression,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration,
  ts.SyntaxKind.Constructor,
  ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

const long = [];
for (const file of sourceFiles()) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    // A declaration without a body (an overload, an interface member) has nothing to measure.
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > maxLines) long.push({ file: relative(root, file), line: first + 1, name: nameOf(node), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

long.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
for (const entry of long) console.log(`${entry.file}:${entry.line}  ${entry.name}  ${entry.lines} lines`);
if (long.length > 0) {
  console.log(`${long.length} function${long.length === 1 ? '' : 's'} longer than ${maxLines} lines`);
  process.exit(1);
}
console.log(`no function longer than ${maxLines} lines`);
