import { defineConfig } from 'vitest/config';
import { defaultServerConditions } from 'vite';

export default defineConfig({
  // Without `module`: Node's loader resolves packages by their `import`/`default` entries, as in production (the OpenTelemetry API's `module` build imports without file extensions).
  ssr: { resolve: { conditions: ['@toolhost/source', ...defaultServerConditions.filter((condition) => condition !== 'module')] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The last line of a run says what was skipped, why, and the command that runs it.
    reporters: ['default', './test/skipped-tests-reporter.ts'],
  },
});
