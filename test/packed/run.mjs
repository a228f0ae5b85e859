#!/usr/bin/env node
// The packed end-to-end suite: what npm users install is what is tested.
//
// 1. checks every built dist/ (nothing inlined from node_modules or another workspace package, no undeclared import);
// 2. packs every workspace package from a staging copy (scripts/pack-packages.mjs), prints each tarball's size and
//    fails on a missing README/LICENSE or a facade tarball over 100 KB;
// 3. installs the tarballs plus their peers into a fresh project in the system temp folder (outside the repository:
//    no workspace links, no @toolhost/source condition) and runs cases/*.case.mjs from ESM and from CommonJS;
// 4. installs the facade with --ignore-scripts and runs the exec cases (the PTY must work without install scripts),
//    @toolhost/testing alone with scripts allowed (nothing may compile; the fake host works), and @toolhost/mcp alone
//    (no Docker or SSH client comes with it; --docker-image names the package to add);
// 5. installs with pnpm (strict layout), runs the exec and fake-host cases and type-checks a consumer of every
//    package (moduleResolution node16 and bundler, skipLibCheck off; in the npm project instead with --no-pnpm);
// 6. runs `npm publish --dry-run` for every package from its staging copy (no warning allowed).
// Steps 3 to 6 run side by side; each prints its lines when it is done.
//
//   node test/packed/run.mjs [--build] [--keep] [--no-pnpm]
// Adding a case: drop an `<area>.case.mjs` into cases/ exporting `[{ name, run(context) }]`; load toolhost's packages
// only through `context.load(name)` so that each case runs once per module system.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { distProblems } from '../../scripts/check-dist.mjs';
import { packAll, printTarballs, publishAll, tarballProblems } from '../../scripts/pack-packages.mjs';
import { repositoryRoot, workspacePackages } from '../../scripts/workspace-packages.mjs';

const { values: options } = parseArgs({
  options: { build: { type: 'boolean' }, keep: { type: 'boolean' }, 'no-pnpm': { type: 'boolean' } },
});
const PNPM_VERSION = '10.34.8';
/** Packages the consumer project installs beside the tarballs, at the versions the repository tests with. */
const PEERS = [
  'zod',
  'ai',
  '@langchain/core',
  'langchain',
  '@modelcontextprotocol/sdk',
  'openai',
  '@openai/agents-core',
  '@anthropic-ai/sdk',
  'typescript',
  '@types/node',
];
/**
 * Installed too, pinned here: @ai-sdk/provider's .d.ts imports 'json-schema' without depending on its types, so an
 * AI SDK user compiling with skipLibCheck off needs them (README, "Types").
 */
const PINNED = { '@types/json-schema': '7.0.15' };
const here = import.meta.dirname;
const started = Date.now();
const results = { passed: 0, failed: 0 };

/** Collects one pipeline's lines, so that pipelines running side by side print one after the other. */
class Log {
  lines = [];
  print(text) {
    this.lines.push(text);
  }
  section(title) {
    this.print(`\n--- ${title} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  record(name, problems) {
    if (problems.length === 0) {
      results.passed++;
      this.print(`  ok   ${name}`);
    } else {
      results.failed++;
      this.print(`  FAIL ${name}\n${problems.join('\n').replace(/^/gm, '       ')}`);
    }
  }
  flush() {
    if (this.lines.length) console.log(this.lines.join('\n'));
    this.lines = [];
  }
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

/** Where the repository installs a peer the consumer project gets at another major: AI SDK 7 (the repository's `ai7` alias; `ai` is 6). */
const PEER_FOLDERS = { ai: 'ai7' };

function installedVersion(name) {
  return JSON.parse(readFileSync(join(repositoryRoot, 'node_modules', PEER_FOLDERS[name] ?? name, 'package.json'), 'utf8')).version;
}

/** The README's "Use it with" snippets (examples/use-it-with), compiled by the consumer as ESM and as CommonJS. */
const SNIPPETS = join(repositoryRoot, 'examples', 'use-it-with');

function copySnippets(consumer) {
  const names = readdirSync(SNIPPETS).filter((name) => name.endsWith('.mts'));
  for (const name of names) {
    const base = `use-${name.slice(0, -'.mts'.length)}`;
    cpSync(join(SNIPPETS, name), join(consumer, `${base}.mts`));
    cpSync(join(SNIPPETS, name), join(consumer, `${base}.cts`));
  }
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
  copySnippets(join(folder, 'consumer'));
  return folder;
}

/** Runs the cases in a project once per module system (in parallel) and records each case line. */
async function runCases(log, label, folder, modes, only) {
  const runs = await Promise.all(
    modes.map((mode) => run(process.execPath, ['runner.cjs', '--mode', mode, ...(only ? ['--only', only] : [])], folder)),
  );
  for (const [index, { code, output }] of runs.entries()) {
    log.print(output.trimEnd().replace(/^(?=.)/gm, `${label} `));
    const summary = /packed \w+: (\d+) passed, (\d+) failed/.exec(output);
    if (!summary) {
      log.record(`${label} ${modes[index]} runner finished`, [`exit ${code}, no summary line`]);
      continue;
    }
    results.passed += Number(summary[1]);
    results.failed += Number(summary[2]);
    if (code !== 0 && Number(summary[2]) === 0) log.record(`${label} ${modes[index]} runner exit code`, [`exit ${code}`]);
  }
}

async function typeCheck(log, label, folder, configs) {
  const tsc = join(folder, 'node_modules', 'typescript', 'bin', 'tsc');
  const checks = await Promise.all(configs.map((config) => run(process.execPath, [tsc, '-p', join('consumer', config)], folder)));
  for (const [index, { code, output }] of checks.entries()) {
    log.record(`${label} tsc -p consumer/${configs[index]} (skipLibCheck false)`, code === 0 ? [] : [output.trim() || `exit ${code}`]);
  }
}

async function install(log, label, folder, command, args) {
  const begun = Date.now();
  const { code, output } = await run(command, args, folder);
  log.record(`${label} install (${((Date.now() - begun) / 1000).toFixed(1)} s)`, code === 0 ? [] : [output.trim()]);
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

/** Every tarball plus peers: the cases from ESM and CommonJS, then the consumer type-check. */
async function npmPipeline(root, tarballs) {
  const log = new Log();
  log.section('npm install of every tarball plus peers');
  const folder = createProject(root, 'npm', tarballs, PEERS);
  if (await install(log, 'npm', folder, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'])) {
    log.record(
      'npm: installed package.json files have no @toolhost/source condition, scripts or devDependencies',
      tarballs.flatMap(({ name }) => {
        const text = readFileSync(join(folder, 'node_modules', name, 'package.json'), 'utf8');
        const manifest = JSON.parse(text);
        return [
          ...(text.includes('@toolhost/source') ? [`${name}: @toolhost/source is still in package.json`] : []),
          ...(manifest.scripts || manifest.devDependencies ? [`${name}: scripts or devDependencies shipped`] : []),
        ];
      }),
    );
    log.section('npm: cases from ESM and CommonJS');
    await runCases(log, 'npm', folder, ['esm', 'cjs']);
    // The pnpm pipeline type-checks the same consumer under its stricter layout; here only when pnpm is skipped.
    if (options['no-pnpm']) {
      log.section('npm: types as a user compiles them');
      await typeCheck(log, 'npm', folder, ['tsconfig.node16.json', 'tsconfig.bundler.json', 'tsconfig.snippets.json']);
    }
  }
  return log;
}

/** The facade alone, installed with --ignore-scripts: PTY sessions must still work. */
async function ignoreScriptsPipeline(root, tarballs) {
  const log = new Log();
  log.section('npm install --ignore-scripts of the facade');
  const folder = createProject(root, 'ignore-scripts', tarballs, []);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  manifest.dependencies = { toolhost: manifest.dependencies.toolhost };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (await install(log, 'ignore-scripts', folder, 'npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'])) {
    await runCases(log, 'ignore-scripts', folder, ['esm', 'cjs'], 'exec');
  }
  return log;
}

/** Folders under node_modules where node-gyp compiled something (a `build/` with a config.gypi or a Release dir). */
function compiledPackages(folder) {
  const root = join(folder, 'node_modules');
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter(
      (entry) =>
        entry.isDirectory() &&
        entry.name === 'build' &&
        (existsSync(join(entry.parentPath, 'build', 'config.gypi')) || existsSync(join(entry.parentPath, 'build', 'Release'))),
    )
    .map((entry) => relative(root, entry.parentPath));
}

/** @toolhost/testing alone, install scripts allowed: nothing may compile, and the fake host works. */
async function testingAlonePipeline(root, tarballs) {
  const log = new Log();
  log.section('npm install of @toolhost/testing alone');
  const folder = createProject(root, 'testing-alone', tarballs, []);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  manifest.dependencies = { '@toolhost/testing': manifest.dependencies['@toolhost/testing'] };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (await install(log, 'testing-alone', folder, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'])) {
    const compiled = compiledPackages(folder);
    log.record('testing-alone: no native build in the tree, no node-pty', [
      ...compiled.map((path) => `${path} was compiled at install`),
      ...(existsSync(join(folder, 'node_modules', 'node-pty')) ? ['node-pty is installed'] : []),
    ]);
    await runCases(log, 'testing-alone', folder, ['esm', 'cjs'], 'testing');
  }
  return log;
}

/**
 * @toolhost/mcp alone: its Docker and SSH packages are optional peers, so serving a local folder installs neither
 * dockerode nor ssh2 (and no install script), and --docker-image names the package to add.
 */
async function mcpAlonePipeline(root, tarballs) {
  const log = new Log();
  log.section('npm install of @toolhost/mcp alone');
  const folder = createProject(root, 'mcp-alone', tarballs, []);
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
  manifest.dependencies = { '@toolhost/mcp': manifest.dependencies['@toolhost/mcp'], zod: installedVersion('zod') };
  writeFileSync(join(folder, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  if (await install(log, 'mcp-alone', folder, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'])) {
    log.record(
      'mcp-alone: no Docker or SSH client installed',
      ['@toolhost/docker', '@toolhost/ssh', 'dockerode', 'ssh2']
        .filter((name) => existsSync(join(folder, 'node_modules', name)))
        .map((name) => `${name} is installed`),
    );
    const { code, output } = await run(join(folder, 'node_modules', '.bin', 'toolhost-mcp'), ['--docker-image', 'node:20'], folder);
    const expected =
      'toolhost-mcp: --docker-image needs the package @toolhost/docker, which is not installed: install it beside @toolhost/mcp (npm install @toolhost/docker), or run npx -p @toolhost/mcp -p @toolhost/docker toolhost-mcp --docker-image ...\n';
    log.record(
      'mcp-alone: --docker-image exits 1 naming the package to install',
      code === 1 && output === expected ? [] : [`exit ${code}: ${output}`],
    );
  }
  return log;
}

/** pnpm's strict layout (only declared packages are visible; build scripts are not run by default). */
async function pnpmPipeline(root, tarballs) {
  const log = new Log();
  log.section(`pnpm ${PNPM_VERSION} install (strict layout)`);
  const prefix = join(root, 'pnpm-tool');
  const tool = await run(
    'npm',
    ['install', '--global', '--prefix', prefix, '--no-audit', '--no-fund', '--prefer-offline', `pnpm@${PNPM_VERSION}`],
    root,
  );
  log.record(`pnpm ${PNPM_VERSION} installed`, tool.code === 0 ? [] : [tool.output.trim()]);
  const folder = createProject(root, 'pnpm', tarballs, PEERS);
  const pnpm = join(prefix, 'bin', 'pnpm');
  if (tool.code === 0 && (await install(log, 'pnpm', folder, pnpm, ['install', '--prefer-offline', '--reporter', 'silent']))) {
    await runCases(log, 'pnpm', folder, ['esm', 'cjs'], 'exec,testing');
    await typeCheck(log, 'pnpm', folder, ['tsconfig.node16.json', 'tsconfig.bundler.json', 'tsconfig.snippets.json']);
  }
  return log;
}

async function main() {
  if (options.build) {
    console.log('--- build');
    execFileSync('npm', ['run', 'build'], { cwd: repositoryRoot, stdio: 'inherit' });
  }
  const packages = workspacePackages();
  const root = mkdtempSync(join(tmpdir(), 'toolhost-packed-'));
  try {
    const log = new Log();
    log.section(`dist check (${packages.length} packages)`);
    for (const pkg of packages) log.record(`${pkg.manifest.name} dist`, distProblems(pkg));
    log.section('versions in lockstep');
    log.record('one version for every package and every internal reference', lockstepProblems(packages));
    log.section('pack');
    const tarballs = packAll(join(root, 'tarballs'), packages);
    log.flush();
    printTarballs(tarballs);
    log.record('tarball contents and sizes', tarballs.flatMap(tarballProblems));
    log.flush();
    // Independent from here on: run side by side, print one after the other.
    const publishLog = new Log();
    const pipelines = [
      npmPipeline(root, tarballs),
      ignoreScriptsPipeline(root, tarballs),
      testingAlonePipeline(root, tarballs),
      mcpAlonePipeline(root, tarballs),
      ...(options['no-pnpm'] ? [] : [pnpmPipeline(root, tarballs)]),
      (async () => {
        publishLog.section('npm publish --dry-run');
        publishLog.record('npm publish --dry-run is clean for every package', await publishAll(true, packages));
        return publishLog;
      })(),
    ];
    for (const pipeline of pipelines) (await pipeline).flush();
  } finally {
    if (options.keep) console.log(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  }
  console.log(`\npacked suite: ${results.passed} passed, ${results.failed} failed (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  process.exit(results.failed === 0 ? 0 : 1);
}

if (!existsSync(join(repositoryRoot, 'node_modules'))) throw new Error('run npm ci first');
await main();
