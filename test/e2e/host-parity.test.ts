// The session straight through host.call: the real host and the fake host give the same model-visible text.
import { afterAll, describe, expect, it } from 'vitest';
import { SESSION, createFakeSessionHost, createRealSessionHost, expectSessionOutputs, normalizeOutput } from './session-script.js';

describe('real host and fake host run the same session identically', () => {
  const real = createRealSessionHost();
  const fake = createFakeSessionHost();
  afterAll(async () => {
    await real.dispose();
    await fake.close();
  });

  it('gives the same normalised outputs and the same files', async () => {
    const outputs: Record<'real' | 'fake', string[]> = { real: [], fake: [] };
    for (const call of SESSION) {
      for (const [label, host] of [
        ['real', real.host],
        ['fake', fake],
      ] as const) {
        outputs[label].push((await host.call(call.name, call.args)).output);
        if (call.name === 'search_tools') host.nextSegment();
      }
    }
    expectSessionOutputs(outputs.real);
    expectSessionOutputs(outputs.fake);
    expect(outputs.fake.map(normalizeOutput)).toEqual(outputs.real.map(normalizeOutput));
    expect(fake.files()['greeting.txt']).toBe(real.read('greeting.txt'));
    expect(fake.tools).toEqual(real.host.tools);
  });
});
