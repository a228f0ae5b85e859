import { describe, expect, it } from 'vitest';
import { errorResult, okResult, type ToolResult } from '@toolhost/core';
import { createVerificationGate, type VerificationGate } from './verification-gate.js';

const edited = okResult('Success.', { diff: [{ path: 'a.ts', is_empty: false }] });

/** Runs `times` allowed, effective edits through check and record. */
function edit(gate: VerificationGate, times = 1) {
  for (let i = 0; i < times; i++) {
    expect(gate.check('apply_patch')).toBeUndefined();
    gate.record('apply_patch', { input: '…' }, edited);
  }
}

const exec = (gate: VerificationGate, cmd: string, data: Record<string, unknown>) =>
  gate.record('exec_command', { cmd }, okResult('…', data));
const poll = (gate: VerificationGate, sessionId: number, result: ToolResult) =>
  gate.record('write_stdin', { session_id: sessionId, chars: '' }, result);

const NO_CHECK_YET =
  "4 edits were made without running any check. Run the project's tests, build, lint or typecheck with exec_command (for example `npm test`, `cargo test`, `pytest`), or, where there are none, a syntax check of an edited file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.";

describe('createVerificationGate', () => {
  it('blocks the edit past the threshold and, before any check ran, names the commands that count, syntax checks included', () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    const blocked = gate.check('apply_patch');
    expect(blocked?.error?.code).toBe('verification_required');
    expect(blocked?.output).toBe(`Error [verification_required]: ${NO_CHECK_YET}`);
    expect(blocked?.data).toEqual({ mutations_since_verification: 4, threshold: 4 });
    expect(gate.lastVerification).toBeUndefined();
  });

  it('a failing verification resets the count, and the next refusal says the checks failed and to run them again', () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    exec(gate, 'npm test', { exit_code: 1 });
    expect(gate.mutationsSinceVerification).toBe(0);
    expect(gate.lastVerification).toEqual({ cmd: 'npm test', exitCode: 1 });
    edit(gate, 4);
    const blocked = gate.check('apply_patch');
    expect(blocked?.output).toBe(
      "Error [verification_required]: 4 edits were made since the project's checks failed: `npm test` exited with code 1. Run it again with exec_command to see whether the edits fixed it (or another test, build, lint, typecheck or syntax check); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
    expect(blocked?.data).toEqual({ mutations_since_verification: 4, threshold: 4, last_verification: { cmd: 'npm test', exit_code: 1 } });
  });

  it('after a passing verification the refusal asks to run it again to see whether the edits broke anything', () => {
    const gate = createVerificationGate({ threshold: 1 });
    exec(gate, 'cd packages/core && npm test', { exit_code: 0 });
    edit(gate);
    const blocked = gate.check('apply_patch');
    expect(blocked?.output).toBe(
      'Error [verification_required]: 1 edit was made since `cd packages/core && npm test` last passed. Run it again with exec_command to see whether the edits broke anything (or another test, build, lint, typecheck or syntax check); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.',
    );
    expect(blocked?.data?.last_verification).toEqual({ cmd: 'cd packages/core && npm test', exit_code: 0 });
  });

  it("names the model's shell tool given to check", () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    expect(gate.check('apply_patch', 'bash')?.output).toBe(
      `Error [verification_required]: ${NO_CHECK_YET.replace('with exec_command', 'with bash')}`,
    );
    exec(gate, 'pytest -q', { exit_code: 2 });
    edit(gate, 4);
    expect(gate.check('apply_patch', 'shell')?.output).toBe(
      "Error [verification_required]: 4 edits were made since the project's checks failed: `pytest -q` exited with code 2. Run it again with shell to see whether the edits fixed it (or another test, build, lint, typecheck or syntax check); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
  });

  it('a syntax check that completes resets the count, as in a workspace without tests', () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    exec(gate, 'npm test', { exit_code: 254 });
    expect(gate.mutationsSinceVerification).toBe(0);
    edit(gate, 4);
    exec(gate, 'node --check src/app.js', { exit_code: 0 });
    expect(gate.mutationsSinceVerification).toBe(0);
    expect(gate.lastVerification).toEqual({ cmd: 'node --check src/app.js', exitCode: 0 });
  });

  it('a verification still running resets nothing until a poll of its session reports an exit, passing or failing', () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    exec(gate, 'npx vitest run', { session_id: 7 });
    expect(gate.check('apply_patch')?.output).toBe(
      'Error [verification_required]: 4 edits were made without running any check. `npx vitest run` is still running in session 7: poll it with write_stdin until it exits; editing resumes as soon as it completes, passing or failing. Reads and inspection commands stay allowed.',
    );
    poll(gate, 7, okResult('…', { session_id: 7 }));
    expect(gate.mutationsSinceVerification).toBe(4);
    poll(gate, 7, okResult('…', { session_id: 7, exit_code: 1 }));
    expect(gate.mutationsSinceVerification).toBe(0);
    expect(gate.lastVerification).toEqual({ cmd: 'npx vitest run', exitCode: 1 });
    // The session is done: a later edit burst gets the failed-check text, not the running one.
    edit(gate, 4);
    expect(gate.check('apply_patch')?.output).toMatch(
      /^Error \[verification_required\]: 4 edits were made since the project's checks failed: `npx vitest run` exited with code 1\./,
    );
  });

  it('forgets a running verification whose session is gone without an exit', () => {
    const gate = createVerificationGate({ threshold: 1 });
    exec(gate, 'cargo test', { session_id: 3 });
    edit(gate);
    expect(gate.check('apply_patch')?.output).toContain('`cargo test` is still running in session 3');
    poll(gate, 3, errorResult('unknown_session', 'Session 3 was pruned'));
    expect(gate.check('apply_patch')?.output).toBe(
      "Error [verification_required]: 1 edit was made without running any check. Run the project's tests, build, lint or typecheck with exec_command (for example `npm test`, `cargo test`, `pytest`), or, where there are none, a syntax check of an edited file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
  });

  it('commands that are not verification, refused commands and polls of other sessions reset nothing', () => {
    const gate = createVerificationGate();
    edit(gate, 4);
    exec(gate, 'cat src/a.ts', { exit_code: 0 });
    exec(gate, 'npm test | tail', { exit_code: 0 });
    gate.record('exec_command', { cmd: 'npm test' }, errorResult('permission_denied', 'refused'));
    exec(gate, 'python3', { session_id: 2 });
    poll(gate, 2, okResult('…', { session_id: 2, exit_code: 0 }));
    expect(gate.mutationsSinceVerification).toBe(4);
    expect(gate.lastVerification).toBeUndefined();
  });

  it('counts a mutation held in flight, so concurrent edits cannot slip past the threshold', () => {
    const gate = createVerificationGate({ threshold: 2 });
    expect(gate.check('apply_patch')).toBeUndefined();
    expect(gate.check('apply_patch')).toBeUndefined();
    expect(gate.check('apply_patch')?.error?.code).toBe('verification_required');
    gate.record('apply_patch', {}, edited);
    gate.record('apply_patch', {}, errorResult('patch_context_not_found', 'no'));
    expect(gate.mutationsSinceVerification).toBe(1);
    expect(gate.check('apply_patch')).toBeUndefined();
  });

  it('quotes a long or multi-line command on one line, cut at 100 characters', () => {
    const gate = createVerificationGate({ threshold: 1 });
    const cmd = `cd packages/core &&\n  npx vitest run ${'src/some-rather-long-test-file-name.test.ts '.repeat(4).trim()}`;
    exec(gate, cmd, { exit_code: 1 });
    edit(gate);
    const output = gate.check('apply_patch')?.output ?? '';
    const shown = `cd packages/core && npx vitest run ${'src/some-rather-long-test-file-name.test.ts '.repeat(4).trim()}`.slice(0, 99);
    expect(output).toContain(`since the project's checks failed: \`${shown}…\` exited with code 1.`);
    expect(gate.check('apply_patch')?.data?.last_verification).toEqual({ cmd, exit_code: 1 });
  });

  it('only blocks mutating tools, and an infinite threshold never blocks', () => {
    const gate = createVerificationGate({ threshold: 0 });
    expect(gate.check('exec_command')).toBeUndefined();
    expect(gate.check('apply_patch')?.error?.code).toBe('verification_required');
    const off = createVerificationGate({ threshold: Infinity });
    edit(off, 20);
  });
});
