import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Dockerode from 'dockerode';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, test } from 'vitest';
import { ENGINES, needsEngine, podmanSocket, sshSettings, type PreparedEngine } from './engines.js';

// toolhost-mcp run as a user runs it, driven by the MCP SDK client over stdio and HTTP, with its tools in a container or
// on an SSH host: every call lands there and nothing in the local folder the server was started from.
// Missing engines are reported by conformance.test.ts (and fail CI there); here their cases are skipped, saying why.
const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '../..');
const cli = [
  '--conditions=@toolhost/source',
  '--import',
  pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href,
  join(repoRoot, 'packages/mcp/src/cli.ts'),
];
const TOKEN = 'mcp-cli-token';
/** A variable of this process: a remote command must not see it. */
const childEnv = { ...process.env, TOOLHOST_MCP_TEST_MARKER: 'on-this-machine' } as Record<string, string>;
const image = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';

const engine = (name: string) => ENGINES.find((candidate) => candidate.name === name)!;
const dockerMissing = await engine('docker').unavailable();
const sshMissing = await engine('ssh').unavailable();
const podmanMissing = await engine('podman').unavailable();
for (const [name, reason] of [
  ['docker', dockerMissing],
  ['podman', podmanMissing],
  ['ssh', sshMissing],
] as const) {
  if (reason !== undefined)
    console.warn(`toolhost-mcp on ${name} NOT TESTED: ${reason}\n  run: eval "$(bash test/environments/setup-ci.sh)"`);
}

const folders: string[] = [];
const freshFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-mcp-cli-'));
  folders.push(folder);
  return folder;
};
const containers = new Set<string>();
afterAll(async () => {
  if (dockerMissing === undefined)
    await Promise.all(
      [...containers].map((id) =>
        new Dockerode()
          .getContainer(id)
          .remove({ force: true })
          .catch(() => undefined),
      ),
    );
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

interface Answer {
  isError: boolean;
  text: string;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Answer> {
  const result = await client.callTool({ name, arguments: args });
  return { isError: result.isError === true, text: (result.content as Array<{ text: string }>)[0].text };
}

const outputOf = (answer: Answer) => answer.text.slice(answer.text.indexOf('Output:\n') + 'Output:\n'.length);
const addFile = (path: string, line: string) => ({ input: `*** Begin Patch\n*** Add File: ${path}\n+${line}\n*** End Patch` });

/** toolhost-mcp over stdio, started in `cwd`; its stderr collected. */
async function startStdio(
  args: string[],
  cwd: string,
  env: Record<string, string> = childEnv,
): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...cli, ...args], cwd, env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'mcp-cli-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** toolhost-mcp over HTTP on a free port, started in `cwd`; resolves once it listens. */
async function startHttp(args: string[], cwd: string) {
  const child: ChildProcess = spawn(process.execPath, [...cli, ...args, '--http', '127.0.0.1:0', '--token', TOKEN], {
    cwd,
    env: childEnv,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const waiters: Array<{ pattern: RegExp; resolve: (match: RegExpExecArray) => void; reject: (error: Error) => void }> = [];
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const waiter of [...waiters]) {
      const match = waiter.pattern.exec(stderr);
      if (match) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(match);
      }
    }
  });
  const exited = new Promise<number | null>((resolveExit) => child.once('exit', resolveExit));
  void exited.then((code) => {
    for (const waiter of waiters.splice(0)) waiter.reject(new Error(`toolhost-mcp exited with ${code}: ${stderr}`));
  });
  /** Resolves when stderr matches `pattern`. */
  const waitFor = (pattern: RegExp) => {
    const match = pattern.exec(stderr);
    return match
      ? Promise.resolve(match)
      : new Promise<RegExpExecArray>((resolveMatch, reject) => waiters.push({ pattern, resolve: resolveMatch, reject }));
  };
  const port = Number((await waitFor(/listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp\n/))[1]);
  return {
    waitFor,
    stderr: () => stderr,
    async connect() {
      const transport = new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${TOKEN}` } },
      });
      const client = new Client({ name: 'mcp-cli-http-test', version: '1.0.0' });
      await client.connect(transport);
      return { client, transport };
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** Runs toolhost-mcp to its exit (for flags and targets that must fail before it serves). */
function runToExit(args: string[], env: Record<string, string> = childEnv) {
  const run = spawnSync(process.execPath, [...cli, ...args], { cwd: freshFolder(), env, encoding: 'utf8', input: '', timeout: 110_000 });
  return { status: run.status, stderr: run.stderr };
}

describe('toolhost-mcp refuses what cannot work, before serving', () => {
  test('flags that do not fit exit 2 with the usage', { timeout: 120_000 }, () => {
    const run = runToExit(['--docker-container', 'box', '--docker-memory', '1g']);
    expect(run.status).toBe(2);
    expect(run.stderr.startsWith('toolhost-mcp: --docker-memory applies only with --docker-image\nUsage: toolhost-mcp')).toBe(true);
  });

  test('an unreachable Docker engine exits 1 and says which engine, without listening', { timeout: 120_000 }, () => {
    const socket = join(freshFolder(), 'absent.sock');
    const run = runToExit(['--docker-image', image, '--http', '127.0.0.1:0', '--token', TOKEN], {
      ...childEnv,
      DOCKER_HOST: `unix://${socket}`,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `toolhost-mcp: cannot start a container from ${image} on the Docker engine at DOCKER_HOST=unix://${socket}: connect ENOENT ${socket} (is Docker running, and may this user use it?)\n`,
    );
  });
});

describe('toolhost-mcp --docker-image', needsEngine('docker', dockerMissing), () => {
  const docker = new Dockerode();

  /** The session container whose hostname (its short id) a command printed. */
  async function containerNamed(hostname: string): Promise<string> {
    const listed = await docker.listContainers({ all: true, filters: { label: ['dev.toolhost.mcp-session=true'] } });
    const found = listed.find((container) => container.Id.startsWith(hostname));
    expect(found, `a session container ${hostname}`).toBeDefined();
    containers.add(found!.Id);
    return found!.Id;
  }
  const exists = (id: string) =>
    docker
      .getContainer(id)
      .inspect()
      .then(
        () => true,
        (error: { statusCode?: number }) => {
          if (error.statusCode === 404) return false;
          throw error;
        },
      );
  const hostnameIn = (answer: Answer) => {
    const hostname = /^([0-9a-f]{12})$/m.exec(outputOf(answer))?.[1];
    expect(hostname, answer.text).toBeDefined();
    return hostname!;
  };

  test(
    'stdio: every call runs in a fresh container with no network and the limits given; nothing lands locally; closing removes it',
    { timeout: 120_000 },
    async () => {
      const local = freshFolder();
      const root = `/srv/mcp-${randomBytes(4).toString('hex')}`;
      const { client, stderr } = await startStdio(
        [
          '--docker-image',
          image,
          '--root',
          root,
          '--profile',
          'advanced',
          '--shell-profile',
          'unix_like',
          '--docker-memory',
          '256m',
          '--docker-cpus',
          '0.5',
          '--docker-pids',
          '200',
        ],
        local,
      );
      let id: string;
      try {
        await expect
          .poll(stderr)
          .toBe(
            `toolhost-mcp: tools run in a fresh container from ${image} (no network, memory 256 MiB, 0.5 CPUs, at most 200 processes), working in ${root}\n`,
          );
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
          'exec_command',
          'write_stdin',
          'apply_patch',
          'search_tools',
          'code_search',
        ]);
        expect(await call(client, 'apply_patch', addFile('notes/hello.txt', 'hello from the container'))).toMatchObject({ isError: false });
        const run = await call(client, 'exec_command', {
          cmd: 'cat notes/hello.txt; pwd; echo "marker=${TOOLHOST_MCP_TEST_MARKER:-unset}"; ls /sys/class/net; echo made > made.txt; cat /etc/hostname',
        });
        expect(run.isError).toBe(false);
        expect(outputOf(run)).toMatch(new RegExp(`^hello from the container\\n${root}\\nmarker=unset\\nlo\\n[0-9a-f]{12}\\n$`));
        const search = await call(client, 'code_search', { query: 'hello from the container' });
        expect(search.text).toContain('notes/hello.txt');
        id = await containerNamed(hostnameIn(run));
        const { HostConfig } = await docker.getContainer(id).inspect();
        expect(HostConfig).toMatchObject({
          NetworkMode: 'none',
          Memory: 256 * 1024 ** 2,
          MemorySwap: 256 * 1024 ** 2,
          CpuPeriod: 100_000,
          CpuQuota: 50_000,
          PidsLimit: 200,
        });
        expect(readdirSync(local)).toEqual([]);
      } finally {
        await client.close();
      }
      expect(await exists(id)).toBe(false);
      expect(readdirSync(local)).toEqual([]);
    },
  );

  test(
    'stdio --mount: the local folder is edited in place at --root, and stays when the container goes',
    { timeout: 120_000 },
    async () => {
      const project = freshFolder();
      writeFileSync(join(project, 'existing.txt'), 'from this machine\n');
      const { client } = await startStdio(['--docker-image', image, '--mount', project, '--shell-profile', 'unix_like'], freshFolder());
      let id: string;
      try {
        expect(await call(client, 'apply_patch', addFile('added.txt', 'from the container'))).toMatchObject({ isError: false });
        const run = await call(client, 'exec_command', { cmd: 'pwd; cat existing.txt added.txt; cat /etc/hostname' });
        expect(outputOf(run)).toMatch(/^\/workspace\nfrom this machine\nfrom the container\n[0-9a-f]{12}\n$/);
        id = await containerNamed(hostnameIn(run));
        expect(readFileSync(join(project, 'added.txt'), 'utf8')).toBe('from the container\n');
      } finally {
        await client.close();
      }
      expect(await exists(id)).toBe(false);
      expect(readdirSync(project).sort()).toEqual(['added.txt', 'existing.txt']);
    },
  );

  test(
    'HTTP: a container per session; ending a session removes its container; a killed container is explained and the next session works',
    { timeout: 180_000 },
    async () => {
      const local = freshFolder();
      const server = await startHttp(['--docker-image', image, '--shell-profile', 'unix_like'], local);
      try {
        const first = await server.connect();
        const second = await server.connect();
        const inFirst = await call(first.client, 'exec_command', { cmd: 'echo first > only-first.txt; cat /etc/hostname' });
        const inSecond = await call(second.client, 'exec_command', { cmd: 'ls; cat /etc/hostname' });
        expect(outputOf(inSecond)).not.toContain('only-first.txt');
        const [firstId, secondId] = [await containerNamed(hostnameIn(inFirst)), await containerNamed(hostnameIn(inSecond))];
        expect(firstId).not.toBe(secondId);

        const firstSession = first.transport.sessionId!;
        await first.transport.terminateSession();
        await first.client.close();
        expect(await exists(firstId)).toBe(false);
        await server.waitFor(new RegExp(`session ${firstSession} ended \\(deleted\\); its container was removed\\n`));

        await docker.getContainer(secondId).kill();
        const lost = await call(second.client, 'exec_command', { cmd: 'echo still there' });
        const patched = await call(second.client, 'apply_patch', addFile('late.txt', 'late'));
        const explained = (code: string) =>
          `Error [${code}]: The Docker container the tools run in cannot be reached: (HTTP code 409) container stopped/paused - Container ${secondId} is not running. This call failed, and every call will until it is back; tell the user. Reconnecting to the MCP server starts a fresh container.`;
        expect(lost).toEqual({ isError: true, text: explained('spawn_failed') });
        expect(patched).toEqual({ isError: true, text: explained('tool_failed') });

        const third = await server.connect();
        const inThird = await call(third.client, 'exec_command', { cmd: 'ls; cat /etc/hostname' });
        expect(inThird.isError).toBe(false);
        const thirdId = await containerNamed(hostnameIn(inThird));
        expect([firstId, secondId]).not.toContain(thirdId);

        await second.transport.terminateSession();
        await second.client.close();
        expect(await exists(secondId)).toBe(false);
        await third.client.close();
        expect(await server.stop()).toBe(0);
        expect(await exists(thirdId)).toBe(false);
        expect(readdirSync(local)).toEqual([]);
      } finally {
        await server.stop();
      }
    },
  );

  test('HTTP: a session that idles out takes its container with it', { timeout: 120_000 }, async () => {
    const server = await startHttp(['--docker-image', image, '--idle-timeout', '1'], freshFolder());
    try {
      const { client, transport } = await server.connect();
      const id = await containerNamed(hostnameIn(await call(client, 'exec_command', { cmd: 'cat /etc/hostname' })));
      await server.waitFor(
        new RegExp(`session ${transport.sessionId} ended after going idle; its processes were killed; its container was removed\\n`),
      );
      expect(await exists(id)).toBe(false);
      await client.close();
    } finally {
      await server.stop();
    }
  });

  test('an image the engine does not have exits 1 before serving, saying to pull it', { timeout: 120_000 }, () => {
    const missing = `toolhost-absent-${randomBytes(4).toString('hex')}:1`;
    const run = runToExit(['--docker-image', missing]);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(
      `toolhost-mcp: cannot start a container from ${missing} on the Docker engine at DOCKER_HOST=${process.env.DOCKER_HOST}: Docker answered 404: No such image: ${missing} (pull the image first: docker pull ${missing})\n`,
    );
  });
});

for (const [name, reason] of [
  ['docker', dockerMissing],
  ['podman', podmanMissing],
] as const) {
  // Podman is reached as a user points toolhost at it: DOCKER_HOST names its Docker-compatible socket.
  const env = name === 'podman' ? { ...childEnv, DOCKER_HOST: `unix://${podmanSocket()}` } : childEnv;
  describe(`toolhost-mcp --docker-container on ${name}`, needsEngine(name, reason), () => {
    test('stdio: every call runs in the running container, which is left running', { timeout: 120_000 }, async () => {
      const prepared: PreparedEngine = await engine(name).prepare();
      const local = freshFolder();
      try {
        const id = prepared.docker!.container.id;
        const root = (await prepared.probe('pwd')).output.trim();
        const { client } = await startStdio(['--docker-container', id, '--root', root, '--shell-profile', 'unix_like'], local, env);
        try {
          expect(await call(client, 'apply_patch', addFile('in-container.txt', 'patched'))).toMatchObject({ isError: false });
          const run = await call(client, 'exec_command', {
            cmd: 'pwd; echo "marker=${TOOLHOST_MCP_TEST_MARKER:-unset}"; echo ran > ran.txt',
          });
          expect(outputOf(run)).toBe(`${root}\nmarker=unset\n`);
        } finally {
          await client.close();
        }
        expect(await prepared.probe('cat in-container.txt ran.txt')).toEqual({ exitCode: 0, output: 'patched\nran\n' });
        expect((await prepared.docker!.container.inspect()).State.Running).toBe(true);
        expect(readdirSync(local)).toEqual([]);
      } finally {
        await prepared.cleanup();
      }
    });
  });
}

describe('toolhost-mcp --ssh', needsEngine('ssh', sshMissing), () => {
  // Read in each test: a skipped describe's body still runs, without the settings.
  const ssh = () => {
    const settings = sshSettings()!;
    const destination = `${settings.username}@${settings.host}:${settings.port}`;
    return { settings, destination, login: ['--ssh', destination, '--ssh-key', process.env.TOOLHOST_TEST_SSH_KEY!] };
  };

  test(
    'stdio, known hosts from a file: every call runs on the host in the folder given; nothing lands locally',
    { timeout: 120_000 },
    async () => {
      const { settings, destination, login } = ssh();
      const prepared = await engine('ssh').prepare();
      const local = freshFolder();
      try {
        const root = (await prepared.probe('pwd')).output.trim();
        const { client, stderr } = await startStdio(
          [...login, '--ssh-known-hosts', settings.knownHosts, '--root', root, '--shell-profile', 'unix_like'],
          local,
        );
        try {
          await expect.poll(stderr).toBe(`toolhost-mcp: tools run in ${root} on ${destination} over SSH\n`);
          expect(await call(client, 'apply_patch', addFile('on-host.txt', 'patched'))).toMatchObject({ isError: false });
          const run = await call(client, 'exec_command', {
            cmd: 'pwd; whoami; echo "marker=${TOOLHOST_MCP_TEST_MARKER:-unset}"; echo ran > ran.txt',
          });
          expect(outputOf(run)).toBe(`${root}\n${settings.username}\nmarker=unset\n`);
        } finally {
          await client.close();
        }
        expect(await prepared.probe('cat on-host.txt ran.txt')).toEqual({ exitCode: 0, output: 'patched\nran\n' });
        expect(readdirSync(local)).toEqual([]);
      } finally {
        await prepared.cleanup();
      }
    },
  );

  test('HTTP, a pinned host key: sessions work in the same folder on the host', { timeout: 120_000 }, async () => {
    const { settings, login } = ssh();
    const prepared = await engine('ssh').prepare();
    const local = freshFolder();
    const ed25519 = readFileSync(settings.knownHosts, 'utf8')
      .split('\n')
      .find((line) => line.split(' ')[1] === 'ssh-ed25519')!;
    const hostKey = ed25519.split(' ').slice(1, 3).join(' ');
    try {
      const root = (await prepared.probe('pwd')).output.trim();
      const server = await startHttp([...login, '--ssh-host-key', hostKey, '--root', root, '--shell-profile', 'unix_like'], local);
      try {
        const first = await server.connect();
        const second = await server.connect();
        expect(await call(first.client, 'apply_patch', addFile('shared.txt', 'from the first session'))).toMatchObject({ isError: false });
        expect(outputOf(await call(second.client, 'exec_command', { cmd: 'cat shared.txt' }))).toBe('from the first session\n');
        await first.client.close();
        await second.client.close();
      } finally {
        await server.stop();
      }
      expect(await prepared.probe('cat shared.txt')).toEqual({ exitCode: 0, output: 'from the first session\n' });
      expect(readdirSync(local)).toEqual([]);
    } finally {
      await prepared.cleanup();
    }
  });

  test('a host the known_hosts given does not list is refused before serving, with what to run', { timeout: 120_000 }, async () => {
    const { settings, login } = ssh();
    const empty = join(freshFolder(), 'known_hosts');
    writeFileSync(empty, '');
    const run = runToExit([...login, '--ssh-known-hosts', empty, '--root', settings.root, '--http', '127.0.0.1:0', '--token', TOKEN]);
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(
      new RegExp(
        `^toolhost-mcp: The SSH host ${settings.host} port ${settings.port} is not known: it offered ssh-ed25519 key SHA256:\\S+, and no known_hosts entry names \\[${settings.host.replace(/\./g, '\\.')}\\]:${settings.port} \\(checked: ${empty}\\)\\. Refused\\.`,
      ),
    );
    expect(run.stderr).toContain(`then run ssh-keyscan -p ${settings.port} ${settings.host} >> ${empty}`);
    expect(
      run.stderr.endsWith(" (toolhost-mcp: --ssh-known-hosts FILE trusts the keys in FILE, --ssh-host-key 'SHA256:…' pins one.)\n"),
    ).toBe(true);
    expect(run.stderr).not.toContain('listening');
  });
});
