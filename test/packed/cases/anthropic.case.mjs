// @toolhost/anthropic from the installed packages: recorded Messages API tool_use blocks answered by a real host.
import { withHost } from './helpers.mjs';

export default [
  {
    name: 'answerToolUses answers recorded tool_use blocks',
    async run(context) {
      const { assert, load } = context;
      const { toAnthropicTools, answerToolUses } = await load('@toolhost/anthropic');
      await withHost(context, { workspace: context.tempWorkspace() }, async (host) => {
        const tools = toAnthropicTools(host);
        assert.deepEqual(tools.map((tool) => tool.name), ['exec_command', 'write_stdin', 'apply_patch', 'search_tools']);
        const results = await answerToolUses(
          [
            { type: 'text', text: 'Running it.' },
            { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'echo from-anthropic' } },
            { type: 'tool_use', id: 'toolu_2', name: 'write_stdin', input: { session_id: 7, chars: '' } },
          ],
          host,
        );
        assert.equal(results.length, 2);
        assert.equal(results[0].tool_use_id, 'toolu_1');
        assert.match(results[0].content, /Output:\nfrom-anthropic\n$/);
        assert.equal(results[1].is_error, true);
        assert.match(results[1].content, /^Error \[unknown_session\]/);
      });
    },
  },
];
