// The installed toolhost-mcp binary over stdio, driven by the MCP SDK client: on a local folder (a PTY call included),
// and with --docker-image in a fresh container when a Docker engine is there.
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** GET on the Docker engine's API that DOCKER_HOST names (a unix socket or plain tcp), as { status, body }. */
function dockerGet(path) {
  const host = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
  const target = host.startsWith('unix://')
    ? { socketPath: host.slice('unix://'.length) }
    : host.startsWith('tcp://')
      ? { host: new URL(host).hostname, port: Number(new URL(host).port || 2375) }
      : undefined;
  if (!target) return Promise.reject(new Error(`DOCKER_HOST=${host} is neither unix:// nor tcp://`));
  return new Promise((resolve, reject) => {
    const req = request({ ...target, path, method: 'GET', timeout: 5_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
    req.end();
  });
}

/** Why no container can be made from `image` here, or undefined when one can. */
async function dockerUnavailable(image) {
  try {
    const ping = await dockerGet('/_ping');
    if (ping.status !== 200) return `the engine answered ${ping.status} to /_ping`;
    const found = await dockerGet(`/images/${encodeURIComponent(image)}/json`);
    return found.status === 200 ? undefined : `the engine has no image ${image}`;
  } catch (error) {
    return `no Docker engine at ${process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock'} (${error.message})`;
  }
}

const textOf = (result) => result.content[0].text;

export default [
  {
    name: 'toolhost-mcp serves the tools over stdio (pipes and a PTY)',
    async run({ assert, projectDir, tempWorkspace }) {
      const workspace = tempWorkspace({ 'a.txt': 'alpha\n' });
      const transport = new StdioClientTransport({
        command: join(projectDir, 'node_modules', '.bin', 'toolhost-mcp'),
        args: ['--workspace', workspace, '--profile', 'advanced'],
        stderr: 'pipe',
      });
      const client = new Client({ name: 'packed-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        assert.deepEqual(tools.map((tool) => tool.name).sort(), [
          'apply_patch',
          'code_search',
          'exec_command',
          'search_tools',
          'write_stdin',
        ]);
        const piped = await client.callTool({ name: 'exec_command', arguments: { cmd: 'cat a.txt' } });
        assert.ok(!piped.isError, JSON.stringify(piped));
        assert.match(piped.content[0].text, /Output:\nalpha\n$/);
        const tty = await client.callTool({
          name: 'exec_command',
          arguments: { cmd: "printf 'a\\rb\\n'; [ -t 0 ] && echo tty", tty: true },
        });
        assert.ok(!tty.isError, JSON.stringify(tty));
        assert.match(tty.content[0].text, /Output:\nb\ntty\n$/);
      } finally {
        await client.close();
      }
    },
  },
  {
    name: 'toolhost-mcp --docker-image runs every call in a fresh container and removes it at the end',
    async run({ assert, projectDir, tempWorkspace, skip }) {
      const image = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';
      const unavailable = await dockerUnavailable(image);
      if (unavailable) skip(`${unavailable}; eval "$(bash test/environments/setup-ci.sh)" starts one with the test image`);
      const local = tempWorkspace();
      const transport = new StdioClientTransport({
        command: join(projectDir, 'node_modules', '.bin', 'toolhost-mcp'),
        args: ['--docker-image', image, '--shell-profile', 'unix_like'],
        cwd: local,
        env: process.env,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'packed-docker-test', version: '1.0.0' });
      await client.connect(transport);
      let hostname;
      try {
        const patched = await client.callTool({
          name: 'apply_patch',
          arguments: { input: '*** Begin Patch\n*** Add File: hello.txt\n+from the container\n*** End Patch' },
        });
        assert.ok(!patched.isError, JSON.stringify(patched));
        const run = await client.callTool({
          name: 'exec_command',
          arguments: { cmd: 'pwd; cat hello.txt; ls /sys/class/net; cat /etc/hostname' },
        });
        const match = /Output:\n\/workspace\nfrom the container\nlo\n([0-9a-f]{12})\n$/.exec(textOf(run));
        assert.ok(match, textOf(run));
        hostname = match[1];
        assert.deepEqual(readdirSync(local), []);
      } finally {
        await client.close();
      }
      const listed = await dockerGet(
        `/containers/json?all=1&filters=${encodeURIComponent(JSON.stringify({ label: ['dev.toolhost.mcp-session=true'] }))}`,
      );
      assert.equal(listed.status, 200);
      assert.deepEqual(
        JSON.parse(listed.body).filter((container) => container.Id.startsWith(hostname)),
        [],
      );
      assert.deepEqual(readdirSync(local), []);
    },
  },
];
