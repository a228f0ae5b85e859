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
        assert.deepEqual(tools.map((tool) => [tool.name, tool.type]), [
          ['exec_command', 'function'], ['write_stdin', 'function'], ['apply_patch', 'custom'], ['search_tools', 'function'],
        ]);
        const outputs = await answerResponsesCalls(
          [
            { type: 'reasoning', id: 'rs_1', summary: [] },
            { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: JSON.stringify({ cmd: 'echo from-openai', workdir: null, tty: null, justification: null }) },
            { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' },
          ],
          host,
        );
        assert.deepEqual(outputs.map((output) => [output.type, output.call_id]), [['function_call_output', 'call_1'], ['custom_tool_call_output', 'call_2']]);
        assert.match(outputs[0].output, /Output:\nfrom-openai\n$/);
        assert.doesNotMatch(outputs[1].output, /^Error/);
      });
    },
  },
];
