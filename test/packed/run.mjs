#!/usr/bin/env node
// The packed end-to-end suite: what npm users install is what is tested.
//
// 1. checks every built dist/ (nothing inlined from node_modules or another workspace package, no undeclared import);
// 2. packs every workspace package from a staging copy (scripts/pack-packages.mjs), prints each tarball's size and
//    fails on a missing README/LICENSE or a facade tarball over 100 KB;
// 3. installs the tarballs plus their peers into a fresh project in the system temp folder (outside the repository:
//    no workspace links, no @toolhost/source condition) and runs cases/*.case.mjs from ESM and from CommonJS;
// 4. type-checks a consumer there (moduleResolution node16 and bundler, skipLibCheck off);
// 5. installs the facade with --ignore-scripts and runs the exec cases (the PTY must work without install scripts);
// 6. installs with pnpm (strict layout) and runs the exec and fake-host cases and the type-check again.
//
//   node test/packed/run.mjs [--build] [--keep] [--no-pnpm]
// Adding a case: drop an `<area>.case.mjs` into cases/ exporting `[{ name, run(context) }]`; load toolhost's packages
// only through `context.load(name)` so that each case runs once per module system.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { distProblems } from '../../scripts/check-dist.mjs';
import { packAll, printTarballs, publishAll, tarballProblems } from '../../scripts/pack-packages.mjs';
import { repositoryRoot, workspacePackages } from '../../scripts/workspace-packages.mjs';

const { values: options } = parseArgs({ options: { build: { type: 'boolean' }, keep: { type: 'boolean' }, 'no-pnpm': { type: 'boolean' } } });
const PNPM_VERSION = '10.34.8';
/** Packages the consumer project installs beside the tarballs, at the versions the repository tests with. */
const PEERS = ['zod', 'ai', '@langchain/core', '@modelcontextprotocol/sdk', 'typescript', '@types/node'];
/**
 * Installed too, pinned here: @ai-sdk/provider's .d.ts imports 'json-schema' without depending on its types, so an
 * AI SDK user compiling with skipLibCheck off needs them (README, "Types").
 */
const PINNED = { '@types/json-schema': '7.0.15' };
const here = import.meta.dirname;
const started = Date.now();
const results = { passed: 0, failed: 0 };

function record(name, problems) {
  if (problems.length === 0) {
    results.passed++;
    console.log(`  ok   ${name}`);
  } else {
    results.failed++;
    console.log(`  FAIL ${name}\n${problems.join('\n').replace(/^/gm, '       ')}`);
  }
}

function section(title) {
  console.log(`\n--- ${title} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

/** The environment for everything run in a consumer project: no development condition, no repository paths. */
function consumerEnv(extra = {}) {
  const { NODE_OPTIONS: _nodeOptions, npm_config_prefix: _prefix, INIT_CWD: _init, ...env } = process.env;
  return { ...env, ...extra };
}

/** Runs a command; resolves to { code, output } (stdout and stderr interleaved), echoing nothing. */
function run(command, args, cwd, env = consumerEnv()) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: -1, output: `${output}${error.message}` }));
    child.on('close', (code) => resolve({ code, output }));
  });
}

function installedVersion(name) {
  return JSON.parse(readFileSync(join(repositoryRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
}

/** Writes a consumer project whose dependencies (and overrides, so nothing comes from the registry) are the tarballs. */
function createProject(root, folderName, tarballs, peers) {
  const folder = join(root, folderName);
  mkdirSync(folder, { recursive: true });
  const local = Object.fromEntries(tarballs.map((tarball) => [tarball.name, `file:${tarball.file}`]));
  const manifest = {
    name: `toolhost-packed-${folderName}`,
    private: true,
    dependencies: { ...local, ...Object.fromEntries(peers.map((name) => [name, installedVersion(name)])), ...(peers.length ? PINNED : {}) },
    overrides: local,
    pnpm: { overrides: local },
  };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  cpSync(join(here, 'runner.cjs'), join(folder, 'runner.cjs'));
  cpSync(join(here, 'cases'), join(folder, 'cases'), { recursive: true });
  cpSync(join(here, 'consumer'), join(folder, 'consumer'), { recursive: true });
  return folder;
}

/** Runs the cases in a project once per module system (in parallel) and records each case line. */
async function runCases(label, folder, modes, only) {
  const runs = await Promise.all(
    modes.map((mode) => run(process.execPath, ['runner.cjs', '--mode', mode, ...(only ? ['--only', only] : [])], folder)),
  );
  for (const [index, { code, output }] of runs.entries()) {
    process.stdout.write(output.replace(/^(?=.)/gm, `${label} `));
    const summary = /packed \w+: (\d+) passed, (\d+) failed/.exec(output);
    if (!summary) {
      record(`${label} ${modes[index]} runner finished`, [`exit ${code}, no summary line`]);
      continue;
    }
    results.passed += Number(summary[1]);
    results.failed += Number(summary[2]);
    if (code !== 0 && Number(summary[2]) === 0) record(`${label} ${modes[index]} runner exit code`, [`exit ${code}`]);
  }
}

async function typeCheck(label, folder, configs) {
  const tsc = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
  for (const config of configs) {
    const { code, output } = await run(process.execPath, [tsc, '-p', join('consumer', config)], folder);
    record(`${label} tsc -p consumer/${config} (skipLibCheck false)`, code === 0 ? [] : [output.trim() || `exit ${code}`]);
  }
}

async function install(label, folder, command, args) {
  const begun = Date.now();
  const { code, output } = await run(command, args, folder);
  record(`${label} install (${((Date.now() - begun) / 1000).toFixed(1)} s)`, code === 0 ? [] : [output.trim()]);
  return code === 0;
}

/** Every package has the same version, and every reference to a sibling names exactly that version. */
function lockstepProblems(packages) {
  const versions = new Set(packages.map((pkg) => pkg.manifest.version));
  if (versions.size !== 1) return [`versions differ: ${packages.map((pkg) => `${pkg.manifest.name}@${pkg.manifest.version}`).join(', ')}`];
  const [version] = versions;
  const names = new Set(packages.map((pkg) => pkg.manifest.name));
  const problems = [];
  for (const { manifest } of packages) {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies']) {
      for (const [name, range] of Object.entries(manifest[field] ?? {})) {
        if (names.has(name) && range !== version) problems.push(`${manifest.name} ${field}.${name} is ${range}, not ${version}`);
      }
    }
  }
  return problems;
}

async function main() {
  if (options.build) {
    section('build');
    execFileSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' });
  }
  const packages = workspacePackages();
  const root = mkdtempSync(join(tmpdir(), 'toolhost-packed-'));
  try {
    section(`dist check (${packages.length} packages)`);
    for (const pkg of packages) record(`${pkg.manifest.name} dist`, distProblems(pkg));

    section('versions in lockstep');
    record('one version for every package and every internal reference', lockstepProblems(packages));

    section('pack');
    const tarballs = packAll(join(root, 'tarballs'), packages);
    printTarballs(tarballs);
    record('tarball contents and sizes', tarballs.flatMap(tarballProblems));
    record('npm publish --dry-run is clean for every package', publishAll(true, packages));

    section('npm install of every tarball plus peers');
    const full = createProject(root, 'npm', tarballs, PEERS);
    if (await install('npm', full, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'])) {
      section('cases from ESM and CommonJS');
      await runCases('npm', full, ['esm', 'cjs']);
      section('types as a user compiles them');
      await typeCheck('npm', full, ['tsconfig.node16.json', 'tsconfig.bundler.json']);
    }

    section('npm install --ignore-scripts of the facade');
    const facade = tarballs.filter((tarball) => tarball.name === 'toolhost' || tarball.name.startsWith('@toolhost/'));
    const bare = createProject(root, 'ignore-scripts', facade, []);
    const bareManifest = JSON.parse(readFileSync(join(bare, 'package.json'), 'utf8'));
    bareManifest.dependencies = { toolhost: bareManifest.dependencies.toolhost };
    writeFileSync(join(bare, 'package.json'), `${JSON.stringify(bareManifest, null, 2)}\n`);
    if (await install('ignore-scripts', bare, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'])) {
      await runCases('ignore-scripts', bare, ['esm', 'cjs'], 'exec');
    }

    if (!options['no-pnpm']) {
      section(`pnpm ${PNPM_VERSION} install (strict layout)`);
      const prefix = join(root, 'pnpm-tool');
      const tool = await run('npm', ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', `pnpm@${PNPM_VERSION}`], root);
      record(`pnpm ${PNPM_VERSION} installed`, tool.code === 0 ? [] : [tool.output.trim()]);
      const pnpmProject = createProject(root, 'pnpm', tarballs, PEERS);
      const pnpm = join(prefix, 'bin', 'pnpm');
      if (tool.code === 0 && (await install('pnpm', pnpmProject, pnpm, ['install', '--prefer-offline', '--reporter', 'silent']))) {
        await runCases('pnpm', pnpmProject, ['esm', 'cjs'], 'exec,testing');
        await typeCheck('pnpm', pnpmProject, ['tsconfig.node16.json', 'tsconfig.bundler.json']);
      }
    }
  } finally {
    if (options.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  console.log(`\npacked suite: ${results.passed} passed, ${results.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(results.failed === 0 ? 0 : 1);
}

if (!existsSync(join(repositoryRoot, 'node_modules'))) throw new Error('run npm ci first');
await main();
