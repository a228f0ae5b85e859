#!/usr/bin/env node
// Packs (or publishes) every workspace package from a staging copy, so the working tree is never modified:
// the copy's package.json loses the development-only `@toolhost/source` export condition (it points at src/, which
// is not shipped), `scripts` and `devDependencies`; the root LICENSE is added;
// a CHANGELOG.md written by `changeset version` is shipped too.
//
//   node scripts/pack-packages.mjs --out DIR          pack every package into DIR and print each tarball's size
//   node scripts/pack-packages.mjs --publish [--dry-run]   npm publish every package from its staging copy
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repositoryRoot, workspacePackages } from './workspace-packages.mjs';

const SOURCE_CONDITION = '@toolhost/source';
/** The facade's tarball must stay below this many bytes. */
export const FACADE_TARBALL_LIMIT = 100 * 1024;

/** Removes the source condition from an `exports` tree (recursively). */
export function stripSourceCondition(exportsField) {
  if (Array.isArray(exportsField)) return exportsField.map(stripSourceCondition);
  if (exportsField === null || typeof exportsField !== 'object') return exportsField;
  return Object.fromEntries(
    Object.entries(exportsField)
      .filter(([key]) => key !== SOURCE_CONDITION)
      .map(([key, value]) => [key, stripSourceCondition(value)]),
  );
}

/** The package.json as published. */
export function publishedManifest(manifest) {
  const { scripts: _scripts, devDependencies: _devDependencies, ...rest } = manifest;
  return { ...rest, exports: stripSourceCondition(manifest.exports) };
}

/** Copies what `files` ships plus package.json, README.md and LICENSE into a fresh staging folder; returns it. */
export function stagePackage({ folder, manifest }, stagingRoot) {
  if (!existsSync(join(folder, 'dist'))) throw new Error(`${manifest.name}: no dist/ (run npm run build first)`);
  const staged = join(stagingRoot, basename(folder));
  mkdirSync(staged, { recursive: true });
  for (const entry of manifest.files ?? []) cpSync(join(folder, entry), join(staged, entry), { recursive: true });
  writeFileSync(join(staged, 'package.json'), `${JSON.stringify(publishedManifest(manifest), null, 2)}\n`);
  if (!existsSync(join(folder, 'README.md'))) throw new Error(`${manifest.name}: no README.md in ${folder}`);
  cpSync(join(folder, 'README.md'), join(staged, 'README.md'));
  cpSync(join(existsSync(join(folder, 'LICENSE')) ? folder : repositoryRoot, 'LICENSE'), join(staged, 'LICENSE'));
  if (existsSync(join(folder, 'CHANGELOG.md'))) cpSync(join(folder, 'CHANGELOG.md'), join(staged, 'CHANGELOG.md'));
  return staged;
}

function npm(args, cwd) {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Packs every workspace package into `outDir`; returns `[{ name, version, file, bytes, files }]`. */
export function packAll(outDir, packages = workspacePackages()) {
  mkdirSync(outDir, { recursive: true });
  const stagingRoot = mkdtempSync(join(tmpdir(), 'toolhost-stage-'));
  try {
    return packages.map((pkg) => {
      const staged = stagePackage(pkg, stagingRoot);
      const [report] = JSON.parse(npm(['pack', '--json', '--pack-destination', outDir], staged));
      const file = join(outDir, report.filename);
      return {
        name: pkg.manifest.name,
        version: pkg.manifest.version,
        file,
        bytes: statSync(file).size,
        files: report.files.map((entry) => entry.path),
      };
    });
  } finally {
    rmSync(stagingRoot, { recursive: true, force: true });
  }
}

/** Problems with a packed tarball's contents, as messages (empty when clean). */
export function tarballProblems(tarball) {
  const problems = [];
  for (const required of ['package.json', 'README.md', 'LICENSE'])
    if (!tarball.files.includes(required)) problems.push(`${tarball.name}: ${required} missing from the tarball`);
  if (!tarball.files.some((path) => path.startsWith('dist/'))) problems.push(`${tarball.name}: no dist/ in the tarball`);
  if (tarball.files.some((path) => path.startsWith('src/'))) problems.push(`${tarball.name}: src/ shipped`);
  if (tarball.name === 'toolhost' && tarball.bytes > FACADE_TARBALL_LIMIT)
    problems.push(`toolhost: tarball is ${tarball.bytes} bytes, over the ${FACADE_TARBALL_LIMIT}-byte limit`);
  return problems;
}

/** Prints one line per tarball: size, file count, name. */
export function printTarballs(tarballs) {
  for (const tarball of tarballs)
    console.log(
      `${(tarball.bytes / 1024).toFixed(1).padStart(8)} KB  ${String(tarball.files.length).padStart(3)} files  ${tarball.name}@${tarball.version}`,
    );
}

/** `npm publish` output lines that are warnings, except the dry run's reminder that nobody is logged in. */
export function publishWarnings(output) {
  return output.split('\n').filter((line) => /^npm warn/i.test(line) && !/requires you to be logged in/.test(line));
}

function runNpm(args, cwd) {
  return new Promise((resolvePromise) => {
    const child = spawn('npm', args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolvePromise({ status: -1, output: `${output}${error.message}` }));
    child.on('close', (status) => resolvePromise({ status, output }));
  });
}

/**
 * Publishes every package from a staging copy (dependencies first, one at a time); a dry run checks them side by
 * side. Resolves to the problems found: a non-zero exit or any warning (a clean run has none).
 */
export async function publishAll(dryRun, packages = workspacePackages()) {
  const stagingRoot = mkdtempSync(join(tmpdir(), 'toolhost-stage-'));
  const problems = [];
  const publishOne = async (pkg) => {
    const staged = stagePackage(pkg, stagingRoot);
    const result = await runNpm(['publish', '--access', 'public', ...(dryRun ? ['--dry-run'] : [])], staged);
    const warnings = publishWarnings(result.output);
    if (result.status !== 0) problems.push(`${pkg.manifest.name}: npm publish exited ${result.status}\n${result.output}`);
    problems.push(...warnings.map((warning) => `${pkg.manifest.name}: ${warning}`));
    if (!dryRun) console.log(`published ${pkg.manifest.name}@${pkg.manifest.version}`);
  };
  try {
    if (dryRun) await Promise.all(packages.map(publishOne));
    else for (const pkg of inDependencyOrder(packages)) await publishOne(pkg);
  } finally {
    rmSync(stagingRoot, { recursive: true, force: true });
  }
  return problems;
}

/** Packages ordered so that each comes after the siblings it depends on. */
function inDependencyOrder(packages) {
  const byName = new Map(packages.map((pkg) => [pkg.manifest.name, pkg]));
  const ordered = [];
  const visit = (pkg, seen = new Set()) => {
    if (ordered.includes(pkg) || seen.has(pkg)) return;
    seen.add(pkg);
    const { dependencies = {}, peerDependencies = {}, optionalDependencies = {} } = pkg.manifest;
    for (const name of Object.keys({ ...dependencies, ...peerDependencies, ...optionalDependencies })) {
      if (byName.has(name)) visit(byName.get(name), seen);
    }
    ordered.push(pkg);
  };
  for (const pkg of packages) visit(pkg);
  return ordered;
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, publish: { type: 'boolean' }, 'dry-run': { type: 'boolean' } } });
  if (values.publish) {
    const problems = await publishAll(Boolean(values['dry-run']));
    if (values['dry-run'])
      console.log(`npm publish --dry-run: ${problems.length ? 'problems' : 'clean'} for ${workspacePackages().length} packages`);
    for (const problem of problems) console.error(problem);
    process.exit(problems.length ? 1 : 0);
  } else {
    const tarballs = packAll(resolve(values.out ?? join(repositoryRoot, '.packed')));
    printTarballs(tarballs);
    const problems = tarballs.flatMap(tarballProblems);
    for (const problem of problems) console.error(problem);
    process.exit(problems.length ? 1 : 0);
  }
}
