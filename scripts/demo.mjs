#!/usr/bin/env node
// `npm run demo`: runs examples/quickstart against the BUILT packages, as a user's code would (public package names,
// dist/ through the export map, no @toolhost/source condition). Builds first when a package's dist/ is missing or
// older than its sources.
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
  console.log(`building (${stale.map((pkg) => pkg.manifest.name).join(', ')} out of date)…`);
  const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: repositoryRoot, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const { NODE_OPTIONS: _nodeOptions, ...env } = process.env;
const demo = spawnSync(process.execPath, ['--import', 'tsx', join(repositoryRoot, 'examples/quickstart/index.ts')], { cwd: repositoryRoot, env, stdio: 'inherit' });
process.exit(demo.status ?? 1);
