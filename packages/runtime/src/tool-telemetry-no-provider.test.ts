import { describe, expect, it } from 'vitest';
import { okResult } from '@toolhost/core';
import { createToolTelemetry } from './tool-telemetry.js';

describe('createToolTelemetry with no tracer provider registered', () => {
  it('runs the call and counts nothing for the span', async () => {
    let counted = 0;
    const traced = createToolTelemetry({ options: undefined, environment: 'local', countTokens: () => ++counted });
    let originals = 0;
    const result = okResult('done');
    await expect(
      traced({ tool: 'exec_command', callId: 'c1' }, () => Promise.resolve({ result, originalTokens: () => ++originals })),
    ).resolves.toBe(result);
    expect([counted, originals]).toEqual([0, 0]);
  });
});
