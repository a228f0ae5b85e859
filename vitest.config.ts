import { defineConfig } from 'vitest/config';
import { defaultServerConditions } from 'vite';

export default defineConfig({
  ssr: { resolve: { conditions: ['@toolhost/source', ...defaultServerConditions] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'test/**/*.test.ts', 'examples/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // The last line of a run says what was skipped, why, and the command that runs it.
    reporters: ['default', './test/skipped-tests-reporter.ts'],
  },
});
