import { describe, expect, it } from 'vitest';
import { createFlowControl } from './flow-control.js';

describe('createFlowControl', () => {
  it('pauses on the first holder and resumes after the last', () => {
    const events: string[] = [];
    const flow = createFlowControl({ pause: () => events.push('pause'), resume: () => events.push('resume') });
    flow.pause();
    flow.pause();
    flow.resume();
    expect(events).toEqual(['pause']);
    flow.resume();
    flow.resume();
    expect(events).toEqual(['pause', 'resume']);
  });
});
