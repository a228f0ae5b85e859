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
        assert.deepEqual(
          tools.map((tool) => tool.name),
          ['exec_command', 'write_stdin', 'apply_patch', 'search_tools'],
        );
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
  {
    name: 'native bash keeps its shell, the text editor edits through the patch engine',
    async run(context) {
      const { assert, load } = context;
      const { toAnthropicTools, answerToolUses } = await load('@toolhost/anthropic');
      await withHost(context, { workspace: context.tempWorkspace({ 'sub/a.txt': 'alpha\nbeta\n' }) }, async (host) => {
        assert.deepEqual(
          toAnthropicTools(host, { native: true }).map((tool) => tool.name),
          ['bash', 'str_replace_based_edit_tool', 'search_tools'],
        );
        const use = (id, name, input) => ({ type: 'tool_use', id, name, input });
        const results = await answerToolUses(
          [
            use('b1', 'bash', { command: 'cd sub && export X=kept' }),
            use('b2', 'bash', { command: 'echo "$X"; cat a.txt' }),
            use('e1', 'str_replace_based_edit_tool', { command: 'str_replace', path: 'sub/a.txt', old_str: 'beta', new_str: 'gamma' }),
            use('e2', 'str_replace_based_edit_tool', { command: 'view', path: 'sub/a.txt' }),
          ],
          host,
        );
        assert.equal(results[1].content, 'kept\nalpha\nbeta\n');
        assert.equal(results[2].is_error, undefined);
        assert.equal(results[3].content, "Here's the result of running `cat -n` on sub/a.txt:\n     1\talpha\n     2\tgamma\n     3\t\n");
      });
    },
  },
  {
    name: 'the text editor writes create byte for byte, refuses to overwrite, and str_replace changes only the match',
    async run(context) {
      const { assert, load } = context;
      const { answerToolUses } = await load('@toolhost/anthropic');
      const workspace = context.tempWorkspace({ 'tail.txt': 'keep\nlast' });
      await withHost(context, { workspace }, async (host) => {
        const use = (id, input) => ({ type: 'tool_use', id, name: 'str_replace_based_edit_tool', input });
        const results = await answerToolUses(
          [
            use('c1', { command: 'create', path: 'exact.txt', file_text: 'no final newline' }),
            use('c2', { command: 'create', path: 'exact.txt', file_text: 'other' }),
            use('r1', { command: 'str_replace', path: 'tail.txt', old_str: 'last', new_str: 'LAST' }),
          ],
          host,
        );
        assert.equal(results[0].content, 'File created successfully at: exact.txt');
        assert.equal(
          results[1].content,
          'Error [patch_target_exists]: File already exists at: exact.txt. Cannot overwrite files using command `create`.',
        );
        assert.equal(results[2].is_error, undefined);
      });
      const { readFileSync } = await import('node:fs');
      const { join } = await import('node:path');
      assert.equal(readFileSync(join(workspace, 'exact.txt'), 'utf8'), 'no final newline');
      assert.equal(readFileSync(join(workspace, 'tail.txt'), 'utf8'), 'keep\nLAST');
    },
  },
];
