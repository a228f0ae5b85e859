import { describe, expect, it } from 'vitest';
import { createBuildGate } from './build-gate.js';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  // Two turns of the event loop let a resolved promise's callbacks run.
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('createBuildGate', () => {
  it('lets the build pass only once every hold has ended; ending a hold twice changes nothing', async () => {
    const gate = createBuildGate();
    expect(await settled(gate.passed())).toBe(true);
    const first = gate.hold();
    const second = gate.hold();
    const waiting = gate.passed();
    first();
    first();
    expect(await settled(waiting)).toBe(false);
    second();
    expect(await settled(waiting)).toBe(true);
    // A new hold after that holds again.
    const third = gate.hold();
    expect(await settled(gate.passed())).toBe(false);
    third();
    expect(await settled(gate.passed())).toBe(true);
  });

  it('ends a hold by itself after the time limit, so a lost end never stops the build for good', async () => {
    const gate = createBuildGate(20);
    gate.hold();
    const started = Date.now();
    await gate.passed();
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it('lets the build pass after the time limit even while new holds keep following one another', async () => {
    const gate = createBuildGate(40);
    let end = gate.hold();
    // A new hold opens before each one ends, for longer than the limit.
    const relay = setInterval(() => {
      const next = gate.hold();
      end();
      end = next;
    }, 5);
    try {
      const started = Date.now();
      await gate.passed();
      expect(Date.now() - started).toBeGreaterThanOrEqual(35);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      clearInterval(relay);
      end();
    }
  });
});
