import { defineConfig, type Options } from 'tsup';

/** The build every package shares: ESM + CJS + .d.ts for Node 20; `extra` adds a package's own settings. */
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
    ...extra,
  });
}
