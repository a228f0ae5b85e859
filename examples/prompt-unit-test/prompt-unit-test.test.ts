// A unit test of an agent's prompt and loop against the fake host: scripted commands, in-memory files, recorded calls.
import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { SYSTEM_PROMPT, runAgent, scriptedModel } from './index.js';

const files = {
  'package.json': '{ "scripts": { "test": "node --test" } }\n',
  'src/greet.js': "export const greet = (name) => 'Helo, ' + name;\n",
};
const commands = [
  { match: 'cat src/greet.js', output: files['src/greet.js'] },
  { match: 'npm test', output: '# pass 1\n# fail 0\n' },
];
const fix = (from: string) => ({
  input: `*** Begin Patch\n*** Update File: src/greet.js\n@@\n-${from}\n+export const greet = (name) => 'Hello, ' + name;\n*** End Patch`,
});

describe('the coding agent prompt', () => {
  it('asks for tests after edits, and the loop recovers from a patch that does not apply', async () => {
    const host = createFakeToolHost({ files, commands });
    const model = scriptedModel(
      [
        { toolName: 'exec_command', input: { cmd: 'cat src/greet.js' } },
        { toolName: 'apply_patch', input: fix("export const greet = (name) => 'Helo ' + name;") },
        { toolName: 'apply_patch', input: fix("export const greet = (name) => 'Helo, ' + name;") },
        { toolName: 'exec_command', input: { cmd: 'npm test' } },
      ],
      'Fixed the typo; npm test passes.',
    );
    const answer = await runAgent(model, host, 'Fix the typo in the greeting.');

    expect(answer).toBe('Fixed the typo; npm test passes.');
    const firstRequest = model.doGenerateCalls[0];
    expect(firstRequest.prompt[0]).toEqual({ role: 'system', content: SYSTEM_PROMPT });
    expect(SYSTEM_PROMPT).toMatch(/run the tests with `npm test`/);
    expect((firstRequest.tools ?? []).map((tool) => tool.name)).toEqual(['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);

    // The failed patch reached the model as an error it can act on, and nothing was written.
    expect(host.calls[1].result.error?.code).toBe('patch_context_not_found');
    const thirdRequest = model.doGenerateCalls[2].prompt;
    const failure = thirdRequest.flatMap((message) => (message.role === 'tool' ? message.content : [])).at(-1);
    expect(failure).toMatchObject({ type: 'tool-result', toolName: 'apply_patch', output: { type: 'error-text' } });

    // Tests ran after the last edit, and the file is fixed.
    const names = host.calls.map((call) =>
      call.name === 'exec_command' ? `exec:${String((call.args as { cmd: string }).cmd)}` : call.name,
    );
    expect(names.lastIndexOf('exec:npm test')).toBeGreaterThan(names.lastIndexOf('apply_patch'));
    expect(host.commandsRun).toEqual(['cat src/greet.js', 'npm test']);
    expect(host.files()['src/greet.js']).toBe("export const greet = (name) => 'Hello, ' + name;\n");
  });

  it('an unscripted command shows up as a failed call instead of touching a real machine', async () => {
    const host = createFakeToolHost({ files, commands });
    await runAgent(scriptedModel([{ toolName: 'exec_command', input: { cmd: 'rm -rf src' } }], 'Done.'), host, 'Clean up.');
    expect(host.calls).toHaveLength(1);
    expect(host.calls[0].result).toMatchObject({ ok: false, error: { code: 'tool_failed' } });
    expect(host.calls[0].result.output).toContain('no scripted command matching "rm -rf src"');
    expect(host.files()).toEqual(files);
  });

  it('the tests fail before the patch and pass after it: one scripted command answers from the files', async () => {
    const host = createFakeToolHost({
      files,
      commands: [
        {
          match: 'npm test',
          // Computed at each run from the fake workspace: the agent's patch is what turns the suite green.
          answer: ({ files: now }) =>
            now['src/greet.js'].includes("'Hello, '")
              ? { output: '# pass 1\n# fail 0\n' }
              : { output: "# fail 1\nexpected 'Hello, Ada', got 'Helo, Ada'\n", exitCode: 1 },
        },
      ],
    });
    const model = scriptedModel(
      [
        { toolName: 'exec_command', input: { cmd: 'npm test' } },
        { toolName: 'apply_patch', input: fix("export const greet = (name) => 'Helo, ' + name;") },
        { toolName: 'exec_command', input: { cmd: 'npm test' } },
      ],
      'The test failed on the typo; fixed, it passes.',
    );
    await runAgent(model, host, 'Make the tests pass.');

    const testRuns = host.calls.filter((call) => call.name === 'exec_command').map((call) => call.result.data?.exit_code);
    expect(testRuns).toEqual([1, 0]);
    expect(host.calls[0].result.output).toContain("expected 'Hello, Ada', got 'Helo, Ada'");
    expect(host.calls[2].result.output).toMatch(/Output:\n# pass 1\n# fail 0\n$/);
  });
});
