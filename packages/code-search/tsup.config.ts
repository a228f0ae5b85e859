import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ["src/index.ts"],
  format: ['esm', 'cjs'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  shims: true,
  // Optional at run time: resolved lazily, never bundled.
  external: ['@vscode/ripgrep'],
});
