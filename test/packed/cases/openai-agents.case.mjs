// @toolhost/openai-agents from the installed packages: a scripted Agents SDK sandbox agent runs on a toolhost session.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export default [
  {
    name: 'a SandboxAgent with a scripted model patches and runs through createToolHostSandboxClient',
    async run({ assert, load }) {
      const { createToolHostSandboxClient } = await load('@toolhost/openai-agents');
      const { run, setTracingDisabled, Usage } = await load('@openai/agents-core');
      const { SandboxAgent, Manifest } = await load('@openai/agents-core/sandbox');
      setTracingDisabled(true);
      const plan = [
        { type: 'apply_patch_call', callId: 'c1', status: 'completed', operation: { type: 'create_file', path: 'b.txt', diff: '+bee\n+' } },
        {
          type: 'function_call',
          callId: 'c2',
          name: 'exec_command',
          status: 'completed',
          arguments: JSON.stringify({ cmd: 'cat a.txt b.txt' }),
        },
      ];
      const seen = [];
      const model = {
        async getResponse(request) {
          const last = request.input.at?.(-1);
          if (last && /_output$|_result$/.test(last.type))
            seen.push(typeof last.output === 'string' ? last.output : (last.output?.text ?? ''));
          const next = plan[seen.length];
          return {
            usage: new Usage(),
            output: next
              ? [next]
              : [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok' }] }],
          };
        },
        getStreamedResponse() {
          throw new Error('no streaming');
        },
      };
      const client = createToolHostSandboxClient();
      let root;
      const agent = new SandboxAgent({
        name: 'packed',
        model,
        defaultManifest: new Manifest({ entries: { 'a.txt': { type: 'file', content: 'ay\n' } } }),
      });
      const wrapped = {
        backendId: client.backendId,
        create: async (...args) => {
          const session = await client.create(...args);
          root = session.state.workspaceRoot;
          return session;
        },
      };
      const result = await run(agent, 'go', { sandbox: { client: wrapped }, maxTurns: 5 });
      assert.equal(result.finalOutput, 'ok');
      assert.match(seen[0], /A b\.txt/);
      assert.match(seen[1], /Process exited with code 0\n[\s\S]*Output:\nay\nbee\n$/);
      assert.equal(existsSync(root), false);
    },
  },
  {
    name: 'session file access is boundary-checked and unsupported manifest entries are refused',
    async run({ assert, load }) {
      const { createToolHostSandboxClient } = await load('@toolhost/openai-agents');
      const client = createToolHostSandboxClient();
      await assert.rejects(client.create({ manifest: { entries: { r: { type: 'git_repo', repo: 'a/b' } } } }), {
        name: 'ToolHostError',
        code: 'unsupported',
      });
      const session = await client.create({ manifest: { entries: { 'a.txt': { type: 'file', content: 'ay' } } } });
      try {
        assert.equal(readFileSync(join(session.state.workspaceRoot, 'a.txt'), 'utf8'), 'ay');
        assert.equal(new TextDecoder().decode(await session.readFile({ path: 'a.txt' })), 'ay');
        await assert.rejects(session.readFile({ path: '../a.txt' }), { code: 'outside_workspace' });
      } finally {
        await session.close();
      }
    },
  },
];
