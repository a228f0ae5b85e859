// apply_patch from the installed packages: an update, an add, and a refused patch that writes nothing.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withHost } from './helpers.mjs';

export default [
  {
    name: 'apply_patch updates and adds files; a bad context writes nothing',
    async run(context) {
      const { assert } = context;
      const workspace = context.tempWorkspace({ 'greeting.txt': 'hello world\n' });
      await withHost(context, { workspace }, async (host) => {
        const applied = await host.call('apply_patch', {
          input:
            '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello world\n+hello packed world\n*** Add File: notes/new.md\n+# new\n*** End Patch',
        });
        assert.equal(applied.ok, true, applied.output);
        assert.equal(readFileSync(join(workspace, 'greeting.txt'), 'utf8'), 'hello packed world\n');
        assert.equal(readFileSync(join(workspace, 'notes/new.md'), 'utf8'), '# new\n');
        const refused = await host.call('apply_patch', {
          input: '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-not there\n+x\n*** End Patch',
        });
        assert.equal(refused.ok, false);
        assert.equal(refused.error.code, 'patch_context_not_found');
        assert.equal(readFileSync(join(workspace, 'greeting.txt'), 'utf8'), 'hello packed world\n');
      });
    },
  },
];
