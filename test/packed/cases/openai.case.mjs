// @toolhost/openai from the installed packages: recorded Responses API output items answered by a real host.
import { withHost } from './helpers.mjs';

export default [
  {
    name: 'answerResponsesCalls answers recorded function and custom tool calls',
    async run(context) {
      const { assert, load } = context;
      const { toResponsesTools, answerResponsesCalls } = await load('@toolhost/openai');
      await withHost(context, { workspace: context.tempWorkspace({ 'a.txt': 'one\n' }) }, async (host) => {
        const tools = toResponsesTools(host, { strict: true });
        assert.deepEqual(
          tools.map((tool) => [tool.name, tool.type]),
          [
            ['exec_command', 'function'],
            ['write_stdin', 'function'],
            ['apply_patch', 'custom'],
            ['search_tools', 'function'],
          ],
        );
        const outputs = await answerResponsesCalls(
          [
            { type: 'reasoning', id: 'rs_1', summary: [] },
            {
              type: 'function_call',
              call_id: 'call_1',
              name: 'exec_command',
              arguments: JSON.stringify({ cmd: 'echo from-openai', workdir: null, tty: null, justification: null }),
            },
            {
              type: 'custom_tool_call',
              call_id: 'call_2',
              name: 'apply_patch',
              input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch',
            },
          ],
          host,
        );
        assert.deepEqual(
          outputs.map((output) => [output.type, output.call_id]),
          [
            ['function_call_output', 'call_1'],
            ['custom_tool_call_output', 'call_2'],
          ],
        );
        assert.match(outputs[0].output, /Output:\nfrom-openai\n$/);
        assert.doesNotMatch(outputs[1].output, /^Error/);
      });
    },
  },
  {
    name: 'native apply_patch_call and shell_call, and the Agents SDK Editor and Shell',
    async run(context) {
      const { assert, load } = context;
      const { toResponsesTools, answerResponsesCalls, createAgentsEditor, createAgentsShell } = await load('@toolhost/openai');
      await withHost(context, { workspace: context.tempWorkspace({ 'a.txt': 'one\n' }) }, async (host) => {
        assert.deepEqual(
          toResponsesTools(host, { native: true }).map((tool) => tool.name ?? tool.type),
          ['shell', 'apply_patch', 'search_tools'],
        );
        const outputs = await answerResponsesCalls(
          [
            {
              type: 'apply_patch_call',
              call_id: 'p1',
              status: 'completed',
              operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+two\n' },
            },
            {
              type: 'apply_patch_call',
              call_id: 'p2',
              status: 'completed',
              operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+three\n' },
            },
            {
              type: 'shell_call',
              call_id: 's1',
              status: 'completed',
              action: { commands: ['cat a.txt', 'exit 4'], timeout_ms: 20000, max_output_length: null },
            },
          ],
          host,
        );
        assert.deepEqual(
          outputs.slice(0, 2).map((output) => output.status),
          ['completed', 'failed'],
        );
        assert.match(outputs[1].output, /^Error \[patch_context_not_found\]/);
        assert.deepEqual(outputs[2].output, [
          { stdout: 'two\n', stderr: '', outcome: { type: 'exit', exit_code: 0 } },
          { stdout: '', stderr: '', outcome: { type: 'exit', exit_code: 4 } },
        ]);
        // As applyDiff reads a create diff: the lines joined by LF, and a last bare "+" for the final line ending.
        const edited = await createAgentsEditor(host).createFile({ type: 'create_file', path: 'b.txt', diff: '+bee\n+' });
        assert.equal(edited.status, 'completed');
        const ran = await createAgentsShell(host).run({ commands: ['cat b.txt'] });
        assert.deepEqual(ran.output, [{ stdout: 'bee\n', stderr: '', outcome: { type: 'exit', exitCode: 0 } }]);
      });
    },
  },
  {
    name: 'a native operation touches only its path: file markers in a diff are refused, nothing changes',
    async run(context) {
      const { assert, load } = context;
      const { answerResponsesCalls, createAgentsEditor } = await load('@toolhost/openai');
      const workspace = context.tempWorkspace({ 'a.txt': 'one\n', 'victim.txt': 'keep\n' });
      await withHost(context, { workspace }, async (host) => {
        const outputs = await answerResponsesCalls(
          [
            {
              type: 'apply_patch_call',
              call_id: 'm1',
              status: 'completed',
              operation: { type: 'update_file', path: 'a.txt', diff: '@@\n-one\n+uno\n*** Delete File: victim.txt\n' },
            },
            {
              type: 'apply_patch_call',
              call_id: 'm2',
              status: 'completed',
              operation: { type: 'create_file', path: 'new.txt', diff: '+x\n*** Add File: other.txt\n+y\n' },
            },
          ],
          host,
        );
        assert.deepEqual(
          outputs.map((output) => output.status),
          ['failed', 'failed'],
        );
        assert.match(
          outputs[0].output,
          /^Error \[patch_parse_error\]: Nothing was changed: update_file a\.txt: line 4 of the diff: "\*\*\* Delete File: victim\.txt" is a patch file marker/,
        );
        const edited = await createAgentsEditor(host).updateFile({
          type: 'update_file',
          path: 'a.txt',
          diff: '@@\n-one\n+uno\n*** Update File: victim.txt\n@@\n-keep\n+gone\n',
        });
        assert.equal(edited.status, 'failed');
        assert.match(edited.output, /is a patch file marker; this diff may only change a\.txt\./);
      });
      const { readdirSync, readFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      assert.deepEqual(readdirSync(workspace).sort(), ['a.txt', 'victim.txt']);
      assert.equal(readFileSync(join(workspace, 'a.txt'), 'utf8'), 'one\n');
      assert.equal(readFileSync(join(workspace, 'victim.txt'), 'utf8'), 'keep\n');
    },
  },
];
