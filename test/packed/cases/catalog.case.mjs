// search_tools from the installed packages: a deferred tool is found, joins host.tools after nextSegment(), and runs.
import { issueTool, withHost } from './helpers.mjs';

export default [
  {
    name: 'search_tools finds a deferred tool that is callable after nextSegment()',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace(), catalog: [issueTool] }, async (host) => {
        assert.ok(!host.tools.some((tool) => tool.name === 'github_create_issue'));
        const found = await host.call('search_tools', { query: 'create a github issue' });
        assert.equal(found.ok, true, found.output);
        assert.match(found.output, /github_create_issue/);
        host.nextSegment();
        assert.ok(host.tools.some((tool) => tool.name === 'github_create_issue'));
        const created = await host.call('github_create_issue', { title: 'Packed' });
        assert.equal(created.ok, true, created.output);
        assert.equal(created.output, 'Created issue "Packed" as #1');
      });
    },
  },
];
