#!/usr/bin/env node
// `npm run demo`: runs examples/quickstart against the BUILT packages, as a user's code would (public package names,
// dist/ through the export map, no @toolhost/source condition). Builds first the packages whose dist/ is missing or
// older than their sources, showing each as it builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repositoryRoot, workspacePackages } from './workspace-packages.mjs';

function newest(folder) {
  if (!existsSync(folder)) return undefined;
  let latest = 0;
  for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) latest = Math.max(latest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return latest;
}

const stale = workspacePackages().filter(({ folder }) => {
  const built = newest(join(folder, 'dist'));
  return built === undefined || newest(join(folder, 'src')) > built || statSync(join(folder, 'package.json')).mtimeMs > built;
});
if (stale.length > 0) {
  // One package at a time, each named as it starts and timed as it ends, so a first build (a minute or more) shows
  // where it is; a package's build output is printed only when it fails.
  console.log(`building ${stale.length} package${stale.length === 1 ? '' : 's'} whose dist/ is missing or out of date:`);
  const started = Date.now();
  for (const [index, pkg] of stale.entries()) {
    const counter = String(index + 1).padStart(String(stale.length).length);
    process.stdout.write(`  [${counter}/${stale.length}] ${pkg.manifest.name} … `);
    const begun = Date.now();
    const build = spawnSync('npm', ['run', 'build', '--silent', '--workspace', pkg.folder], {
      cwd: repositoryRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (build.status !== 0) {
      console.log('failed');
      process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}${build.error ? `${build.error.message}\n` : ''}`);
      process.exit(build.status ?? 1);
    }
    console.log(`${((Date.now() - begun) / 1000).toFixed(1)} s`);
  }
  console.log(`built in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
}
const { NODE_OPTIONS: _nodeOptions, ...env } = process.env;
const demo = spawnSync(process.execPath, ['--import', 'tsx', join(repositoryRoot, 'examples/quickstart/index.ts')], {
  cwd: repositoryRoot,
  env,
  stdio: 'inherit',
});
process.exit(demo.status ?? 1);
