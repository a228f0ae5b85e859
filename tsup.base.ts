import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, type Options } from 'tsup';

interface PackageManifest {
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

/**
 * Every package the manifest in `folder` declares, as patterns that also match its subpaths
 * (`@modelcontextprotocol/sdk` keeps `@modelcontextprotocol/sdk/server/index.js` external too).
 */
export function declaredExternals(folder: string = process.cwd()): RegExp[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as PackageManifest;
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  return [...names].sort().map((name) => new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?:/.*)?$`));
}

/**
 * The build every package shares: ESM + CJS + .d.ts for Node 20; `extra` adds a package's own settings.
 * Everything the package declares stays external and nothing else is bundled (`noExternal` is never set), so an
 * undeclared import would be inlined: the dist check in test/packed catches that.
 */
export function packageBuild(entry: string[] = ['src/index.ts'], extra: Options = {}) {
  return defineConfig({
    entry,
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: true,
    target: 'node20',
    // Required where sources use import.meta.url: the CJS build would otherwise get undefined.
    shims: true,
    external: declaredExternals(),
    ...extra,
  });
}
