import { trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';

describe('execute_tool spans with no tracer provider registered', () => {
  it('leave every call as it was', async () => {
    const host = createFakeToolHost({
      environment: { platform: 'linux', env: {} },
      files: { 'a.txt': 'one\n' },
      commands: [{ match: 'echo hi', output: 'hi\n' }],
    });
    const result = await host.call('exec_command', { cmd: 'echo hi' }, { callId: 'call_1' });
    expect(result).toMatchObject({ ok: true, data: { exit_code: 0 } });
    const edited = await host.edit([{ kind: 'add', path: 'b.txt', content: 'two\n' }], { callId: 'edit_1' });
    expect(edited).toEqual({ ok: true, output: 'Success. Updated the following files:\nA b.txt\n', data: expect.any(Object) });
    expect(trace.getActiveSpan()).toBeUndefined();
  });
});
