// @toolhost/testing from the installed packages: the fake host answers scripted commands and patches in memory.
import { issueTool } from './helpers.mjs';

export default [
  {
    name: 'the fake host runs scripted commands, patches and search_tools',
    async run({ load, assert }) {
      const { createFakeToolHost } = await load('@toolhost/testing');
      const host = createFakeToolHost({
        files: { 'a.txt': 'one\n' },
        commands: [{ match: 'git status --short', output: ' M a.txt\n' }],
        catalog: [issueTool],
      });
      try {
        const status = await host.call('exec_command', { cmd: 'git status --short' });
        assert.equal(status.ok, true, status.output);
        assert.match(status.output, /Output:\n M a\.txt\n$/);
        const patched = await host.call('apply_patch', { input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+two\n*** End Patch' });
        assert.equal(patched.ok, true, patched.output);
        assert.ok(Object.values(host.files()).includes('two\n'), JSON.stringify(host.files()));
        await host.call('search_tools', { query: 'github issue' });
        host.nextSegment();
        assert.ok(host.tools.some((tool) => tool.name === 'github_create_issue'));
        assert.deepEqual(
          host.calls.map((call) => call.name),
          ['exec_command', 'apply_patch', 'search_tools'],
        );
      } finally {
        await host.close();
      }
    },
  },
];
