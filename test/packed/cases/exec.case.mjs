// exec_command and write_stdin from the installed packages: pipes, a PTY (node-pty's native binary must load
// from the installed @lydell/node-pty), and a spool that holds the complete output.
import { readFileSync } from 'node:fs';
import { outputOf, withHost } from './helpers.mjs';

export default [
  {
    name: 'exec_command over pipes',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace({ 'a.txt': 'alpha\n' }) }, async (host) => {
        const result = await host.call('exec_command', { cmd: 'cat a.txt; echo err >&2; exit 3' });
        assert.equal(result.ok, true, result.output);
        assert.equal(result.data.exit_code, 3);
        assert.match(outputOf(result), /^alpha\n(err\n)?$/);
      });
    },
  },
  {
    name: 'PTY renders carriage returns and write_stdin reaches the session',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace() }, async (host) => {
        const progress = await host.call('exec_command', {
          cmd: "printf 'progress 10%%\\rprogress 100%%\\n'; [ -t 1 ] && echo tty",
          tty: true,
        });
        assert.equal(progress.ok, true, progress.output);
        assert.equal(outputOf(progress), 'progress 100%\ntty\n');
        const started = await host.call('exec_command', { cmd: 'read line; echo "got:$line"', tty: true, yield_time_ms: 250 });
        assert.equal(started.ok, true, started.output);
        const sessionId = started.data.session_id;
        assert.equal(typeof sessionId, 'number', started.output);
        const done = await host.call('write_stdin', { session_id: sessionId, chars: 'hello\n', yield_time_ms: 20_000 });
        assert.equal(done.ok, true, done.output);
        assert.equal(done.data.exit_code, 0, done.output);
        assert.match(outputOf(started) + outputOf(done), /got:hello\n$/);
      });
    },
  },
  {
    name: 'commands find rg (the installed @vscode/ripgrep when PATH has none) and the description suggests it',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace({ 'a.txt': 'needle\n' }) }, async (host) => {
        assert.match(host.tools.find((tool) => tool.name === 'exec_command').description, /`rg --files`/);
        const result = await host.call('exec_command', { cmd: 'rg --version && rg -n --no-heading needle .' });
        assert.equal(result.ok, true, result.output);
        assert.equal(result.data.exit_code, 0, result.output);
        assert.match(outputOf(result), /^ripgrep \d[\s\S]*\n\.\/a\.txt:1:needle\n$/);
      });
    },
  },
  {
    name: 'large output: bounded preview, complete spool',
    async run(context) {
      const { assert } = context;
      await withHost(context, { workspace: context.tempWorkspace() }, async (host) => {
        const result = await host.call('exec_command', { cmd: 'seq 1 100000', max_output_tokens: 200, yield_time_ms: 30_000 });
        assert.equal(result.ok, true, result.output);
        assert.equal(result.data.exit_code, 0);
        assert.ok(result.output.length < 4_000, `preview is ${result.output.length} characters`);
        const spool = readFileSync(result.data.spool_path, 'utf8');
        const expected = Array.from({ length: 100_000 }, (_, index) => `${index + 1}\n`).join('');
        assert.equal(spool.length, expected.length);
        assert.ok(spool === expected, 'the spool holds every line of the output');
      });
    },
  },
];
