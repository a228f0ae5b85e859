import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import type { SkipReason } from './skip-reason.js';
import { skippedTestsLine } from './skipped-tests-reporter.js';

type Node = { type: 'module' | 'suite' | 'test'; parent?: Node; meta(): { skipReason?: SkipReason } };

/** A module whose skipped tests sit in suites with the given reasons (undefined: none given). */
function moduleWith(suites: Array<{ reason?: SkipReason; skipped: number }>): TestModule {
  const module: Node = { type: 'module', meta: () => ({}) };
  const tests = suites.flatMap(({ reason, skipped }) => {
    const suite: Node = { type: 'suite', parent: module, meta: () => (reason ? { skipReason: reason } : {}) };
    return Array.from({ length: skipped }, (): Node => ({ type: 'test', parent: suite, meta: () => ({}) }));
  });
  return Object.assign(module, {
    children: {
      *allTests(state: string) {
        if (state === 'skipped') yield* tests;
      },
    },
  }) as unknown as TestModule;
}

describe('the skipped-tests line', () => {
  it('counts each reason, grouped by the command that runs those tests', () => {
    const setup = 'eval "$(bash test/environments/setup-ci.sh)"';
    const line = skippedTestsLine([
      moduleWith([
        { reason: { why: 'no docker engine: not\n running', enable: setup }, skipped: 2 },
        { reason: { why: 'no ssh engine', enable: setup }, skipped: 1 },
      ]),
      moduleWith([
        { reason: { why: 'no docker engine: not\n running', enable: setup }, skipped: 1 },
        { reason: { why: 'Linux only' }, skipped: 3 },
        { skipped: 2 },
      ]),
    ]);
    expect(line).toBe(
      `skipped 9: 3 (no docker engine: not running), 1 (no ssh engine), to run them: ${setup}; 3 (Linux only), 2 (filtered out, or skipped with no reason given)`,
    );
  });

  it('says so when nothing was skipped', () => {
    expect(skippedTestsLine([moduleWith([])])).toBe('skipped: none');
  });
});
