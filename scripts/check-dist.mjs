#!/usr/bin/env node
// Fails when a built package ships code it should have imported, or imports what it does not declare:
// - a dist source map lists a source from node_modules or from outside the package's own src/ (another workspace
//   package inlined), which is how an undeclared import shows up once tsup keeps only declared packages external;
// - a dist .js/.cjs/.d.ts/.d.cts file names a bare package (outside a comment line) that is neither a Node builtin, the
//   package itself, nor declared in its dependencies, peerDependencies or optionalDependencies.
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import { workspacePackages } from './workspace-packages.mjs';

const BUILTINS = new Set(builtinModules);
const PACKAGE_SPECIFIER = /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.@/-]*)?$/i;
// tsup's own CJS shims (import.meta.url) are the one piece of node_modules a dist may contain.
const ALLOWED_INLINE = `${sep}node_modules${sep}tsup${sep}assets${sep}`;
/** A line inside a block comment (` * …`) or a line comment. */
const COMMENT_LINE = /^\s*(?:\*|\/\/).*$/gm;
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)["']([^"'./][^"']*)["']/gm;

/** The package name of a bare specifier (`@scope/name/sub` -> `@scope/name`). */
export function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

function filesUnder(folder) {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Problems in one package's dist/, as messages. */
export function distProblems({ folder, manifest }) {
  const problems = [];
  const dist = join(folder, 'dist');
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const ownSources = join(folder, 'src') + sep;
  for (const file of filesUnder(dist)) {
    const shown = `${manifest.name}: ${relative(folder, file)}`;
    if (file.endsWith('.map')) {
      const { sources = [] } = JSON.parse(readFileSync(file, 'utf8'));
      for (const source of sources) {
        const absolute = resolve(join(file, '..'), source);
        if (absolute.includes(ALLOWED_INLINE)) continue;
        if (absolute.includes(`${sep}node_modules${sep}`))
          problems.push(`${shown} inlines ${relative(folder, absolute)} (declare the package so it stays external)`);
        else if (!absolute.startsWith(ownSources))
          problems.push(`${shown} inlines ${relative(folder, absolute)}, outside the package's src/`);
      }
    } else if (/\.(c|m)?js$|\.d\.(c|m)?ts$/.test(file)) {
      // Comment lines do not import: a JSDoc example shows how a user imports other packages.
      const text = readFileSync(file, 'utf8').replace(COMMENT_LINE, '');
      for (const [, specifier] of text.matchAll(SPECIFIER)) {
        if (!PACKAGE_SPECIFIER.test(specifier) || specifier.startsWith('node:') || BUILTINS.has(specifier)) continue;
        const name = packageNameOf(specifier);
        if (!declared.has(name)) problems.push(`${shown} imports ${specifier}, which ${manifest.name} does not declare`);
      }
    }
  }
  return [...new Set(problems)];
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const packages = workspacePackages();
  const problems = packages.flatMap(distProblems);
  for (const problem of problems) console.error(problem);
  console.log(`dist check: ${packages.length} packages, ${problems.length} problems`);
  process.exit(problems.length ? 1 : 0);
}
