import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { answerResponsesCalls } from './index.js';

const linux = { platform: 'linux', env: {} };
const host = () =>
  createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
const shellAction = { commands: ['echo hi'], timeout_ms: null, max_output_length: null };
const shellOutput = [{ stdout: 'hi\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } }];
const created = 'Success. Updated the following files:\nA b.txt\n';

describe('caller on call outputs', () => {
  it('echoes a program caller on shell_call_output and apply_patch_call_output', async () => {
    const caller = { type: 'program', caller_id: 'prog_1' } as const;
    const outputs = await answerResponsesCalls(
      [
        { type: 'shell_call', id: 's', call_id: 'c_sh', status: 'completed', environment: null, action: shellAction, caller },
        {
          type: 'apply_patch_call',
          id: 'p',
          call_id: 'c_ap',
          status: 'completed',
          operation: { type: 'create_file', path: 'b.txt', diff: '+two\n' },
          caller,
        },
      ],
      host(),
    );
    expect(outputs).toEqual([
      {
        type: 'shell_call_output',
        call_id: 'c_sh',
        output: shellOutput,
        max_output_length: null,
        caller: { type: 'program', caller_id: 'prog_1' },
      },
      {
        type: 'apply_patch_call_output',
        call_id: 'c_ap',
        status: 'completed',
        output: created,
        caller: { type: 'program', caller_id: 'prog_1' },
      },
    ]);
  });

  it('echoes a direct caller, on function and custom tool call outputs too', async () => {
    const caller = { type: 'direct' } as const;
    const outputs = await answerResponsesCalls(
      [
        { type: 'shell_call', id: 's', call_id: 'c_sh', status: 'completed', environment: null, action: shellAction, caller },
        {
          type: 'apply_patch_call',
          id: 'p',
          call_id: 'c_ap',
          status: 'completed',
          operation: { type: 'create_file', path: 'b.txt', diff: '+two\n' },
          caller,
        },
        { type: 'function_call', id: 'f', call_id: 'c_fn', name: 'exec_command', arguments: '{"cmd":"echo hi"}', caller },
        {
          type: 'custom_tool_call',
          id: 'x',
          call_id: 'c_cu',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** Delete File: b.txt\n*** End Patch',
          caller,
        },
      ],
      host(),
    );
    expect(outputs.map((output) => [output.type, output.caller])).toEqual([
      ['shell_call_output', { type: 'direct' }],
      ['apply_patch_call_output', { type: 'direct' }],
      ['function_call_output', { type: 'direct' }],
      ['custom_tool_call_output', { type: 'direct' }],
    ]);
  });

  it('adds no caller when the call had none, a null one or a malformed one', async () => {
    const outputs = await answerResponsesCalls(
      [
        { type: 'shell_call', id: 's1', call_id: 'c_none', status: 'completed', environment: null, action: shellAction },
        { type: 'shell_call', id: 's2', call_id: 'c_null', status: 'completed', environment: null, action: shellAction, caller: null },
        {
          type: 'shell_call',
          id: 's3',
          call_id: 'c_bad',
          status: 'completed',
          environment: null,
          action: shellAction,
          caller: { type: 'program' },
        },
        {
          type: 'apply_patch_call',
          id: 'p1',
          call_id: 'c_ap',
          status: 'completed',
          operation: { type: 'create_file', path: 'b.txt', diff: '+two\n' },
        },
        {
          type: 'apply_patch_call',
          id: 'p2',
          call_id: 'c_ap_null',
          status: 'completed',
          operation: { type: 'delete_file', path: 'b.txt' },
          caller: null,
        },
      ],
      host(),
    );
    for (const output of outputs) expect(Object.keys(output)).not.toContain('caller');
    expect(outputs[0]).toEqual({ type: 'shell_call_output', call_id: 'c_none', output: shellOutput, max_output_length: null });
    expect(outputs[3]).toEqual({ type: 'apply_patch_call_output', call_id: 'c_ap', status: 'completed', output: created });
  });
});
