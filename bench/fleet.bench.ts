// Many agents on one engine: N agents (FLEET_AGENTS, default 64), each with its own container (--network none, the
// test image), make FLEET_EXECS exec_command calls (default 20) and FLEET_PATCHES apply_patch calls (default 5) at
// once; the docker CLI makes the same calls (docker run, docker exec, docker rm) in the same run, the two ways taking
// turns at going first over FLEET_ROUNDS rounds (default 1). Engines: the Docker daemon of DOCKER_HOST; the same daemon
// over TCP with TLS on 127.0.0.1 (certificates made here with openssl, client certificates required); Podman when
// installed (FLEET_ENGINES=docker,tls,podman picks). Reports calls lost, containers left, p50/p99 latency of a call,
// the ratio to the CLI and the load average, as a table and as one `FLEET {json}` line per engine and round.
// Needs the engines of test/environments (eval "$(bash test/environments/setup-ci.sh)"). Run: npm run bench -- fleet
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, type AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createServer } from 'node:tls';
import { promisify } from 'node:util';
import Dockerode from 'dockerode';
import { approximateTokenizer } from '@toolhost/core';
import { createDockerEnvironment } from '@toolhost/docker';
import { createToolHost, type ToolHost } from 'toolhost';

const run = promisify(execFile);
const AGENTS = Number(process.env.FLEET_AGENTS ?? 64);
const EXECS = Number(process.env.FLEET_EXECS ?? 20);
const PATCHES = Number(process.env.FLEET_PATCHES ?? 5);
const ROUNDS = Number(process.env.FLEET_ROUNDS ?? 1);
const IMAGE = process.env.TOOLHOST_TEST_DOCKER_IMAGE ?? 'toolhost-test:busybox';

/** How to reach one engine: a dockerode client and the docker CLI arguments for the same daemon. */
interface Engine {
  name: string;
  docker: Dockerode;
  cli: string[];
  close?: () => Promise<void>;
}

interface Tally {
  latencies: number[];
  /** The same latencies by kind of call. */
  byKind: Record<'exec' | 'patch', number[]>;
  lost: number;
  wallMs: number;
  /** The first failure, to print. */
  firstError?: string;
}

function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

async function timedCall<T>(tally: Tally, kind: 'exec' | 'patch', call: () => Promise<T>, ok: (value: T) => boolean): Promise<void> {
  const started = performance.now();
  try {
    const value = await call();
    if (!ok(value)) {
      tally.lost++;
      tally.firstError ??= JSON.stringify(value).slice(0, 300);
    }
  } catch (error) {
    tally.lost++;
    tally.firstError ??= String(error).slice(0, 300);
  }
  const latency = performance.now() - started;
  tally.latencies.push(latency);
  tally.byKind[kind].push(latency);
}

function patchText(agent: number, round: number): string {
  if (round === 0) return `*** Begin Patch\n*** Add File: notes.txt\n+agent ${agent} round 0\n*** End Patch`;
  return `*** Begin Patch\n*** Update File: notes.txt\n@@\n-agent ${agent} round ${round - 1}\n+agent ${agent} round ${round}\n*** End Patch`;
}

/**
 * One exec_command call followed, while its command still runs, by empty write_stdin polls until it exits: a slow
 * engine makes a call slow, not lost.
 */
async function execToEnd(host: ToolHost, cmd: string): Promise<{ ok: boolean; exitCode?: number; output: string }> {
  let result = await host.call('exec_command', { cmd, yield_time_ms: 30_000 });
  let output = result.output;
  while (result.ok && typeof result.data?.session_id === 'number' && typeof result.data.exit_code !== 'number') {
    result = await host.call('write_stdin', { session_id: result.data.session_id, chars: '', yield_time_ms: 30_000 });
    output += result.output;
  }
  const exitCode = result.data?.exit_code;
  return { ok: result.ok, output, ...(typeof exitCode === 'number' ? { exitCode } : {}) };
}

async function toolhostAgent(engine: Engine, label: string, agent: number, tally: Tally): Promise<void> {
  const environment = await createDockerEnvironment({
    image: IMAGE,
    root: '/workspace',
    docker: engine.docker,
    create: { Labels: { 'toolhost-fleet': label } },
  });
  const host = createToolHost({ environment, tokenizer: approximateTokenizer, verification: { threshold: Infinity } });
  try {
    for (let call = 0; call < EXECS; call++) {
      const expected = `agent-${agent}-call-${call}`;
      await timedCall(
        tally,
        'exec',
        () => execToEnd(host, `echo ${expected}`),
        (result) => result.ok && result.exitCode === 0 && result.output.includes(expected),
      );
    }
    for (let round = 0; round < PATCHES; round++) {
      await timedCall(
        tally,
        'patch',
        () => host.call('apply_patch', { input: patchText(agent, round) }),
        (result) => result.ok,
      );
    }
  } finally {
    await host.close();
  }
}

async function cliAgent(engine: Engine, label: string, agent: number, tally: Tally): Promise<void> {
  const docker = (...args: string[]) => run('docker', [...engine.cli, ...args], { maxBuffer: 1 << 20 });
  const { stdout } = await docker('run', '-d', '--network', 'none', '--label', `toolhost-fleet=${label}`, IMAGE, 'sleep', '3600');
  const id = stdout.trim();
  try {
    await docker('exec', id, 'mkdir', '-p', '/workspace');
    for (let call = 0; call < EXECS; call++) {
      const expected = `agent-${agent}-call-${call}`;
      await timedCall(
        tally,
        'exec',
        () => docker('exec', '-w', '/workspace', id, 'sh', '-c', `echo ${expected}`),
        (out) => out.stdout.includes(expected),
      );
    }
    for (let round = 0; round < PATCHES; round++) {
      // The CLI's nearest equivalent of one checked edit: write the new content through a temp file and a rename.
      const text = `agent ${agent} round ${round}`;
      await timedCall(
        tally,
        'patch',
        () => docker('exec', '-w', '/workspace', id, 'sh', '-c', `printf '%s\\n' '${text}' > .notes.tmp && mv .notes.tmp notes.txt`),
        () => true,
      );
    }
  } finally {
    await docker('rm', '-f', id).catch(() => undefined);
  }
}

async function fleet(engine: Engine, way: 'toolhost' | 'docker CLI'): Promise<Tally & { left: number }> {
  const label = `${way === 'toolhost' ? 'th' : 'cli'}-${process.pid}-${Date.now()}`;
  const tally: Tally = { latencies: [], byKind: { exec: [], patch: [] }, lost: 0, wallMs: 0 };
  const started = performance.now();
  const agents = Array.from({ length: AGENTS }, (_, agent) =>
    (way === 'toolhost' ? toolhostAgent : cliAgent)(engine, label, agent, tally).catch((error: unknown) => {
      // An agent whose container never started loses every call it was to make.
      tally.lost += EXECS + PATCHES;
      tally.firstError ??= String(error).slice(0, 300);
    }),
  );
  await Promise.all(agents);
  tally.wallMs = performance.now() - started;
  const left = await engine.docker.listContainers({ all: true, filters: { label: [`toolhost-fleet=${label}`] } });
  for (const container of left) await engine.docker.getContainer(container.Id).remove({ force: true });
  return { ...tally, left: left.length };
}

function openssl(cwd: string, ...args: string[]): void {
  const result = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`openssl ${args.join(' ')} failed: ${result.stderr}`);
}

/** A CA, a server certificate for 127.0.0.1 and a client certificate, as `dockerd --tlsverify` setups use. */
function makeCertificates(folder: string): void {
  openssl(
    folder,
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=fleet-ca',
    '-keyout',
    'ca-key.pem',
    '-out',
    'ca.pem',
  );
  for (const [name, extension] of [
    ['server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth'],
    ['client', 'extendedKeyUsage=clientAuth'],
  ] as const) {
    writeFileSync(join(folder, `${name}.ext`), `${extension}\n`);
    openssl(folder, 'req', '-newkey', 'rsa:2048', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`);
    openssl(
      folder,
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca-key.pem',
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      `${name}.ext`,
      '-out',
      `${name}.pem`,
    );
  }
}

/**
 * The daemon of DOCKER_HOST behind a TLS listener on 127.0.0.1 that requires a client certificate signed by the CA,
 * passing bytes through (so exec's hijacked streams work as on dockerd's own TLS port).
 */
async function tlsEngine(socketPath: string, folder: string): Promise<Engine> {
  makeCertificates(folder);
  const read = (name: string) => readFileSync(join(folder, name));
  // Kept so close() can end them: the client's idle keep-alive connections would hold the listener open.
  const sockets = new Set<{ destroy(): void }>();
  const server = createServer(
    {
      key: read('server-key.pem'),
      cert: read('server.pem'),
      ca: read('ca.pem'),
      requestCert: true,
      rejectUnauthorized: true,
      allowHalfOpen: true,
    },
    (client) => {
      // Half-open both ways: the CLI ends its stdin of an exec with a half close and still reads the output.
      const daemon = connect({ path: socketPath, allowHalfOpen: true });
      client.pipe(daemon).pipe(client);
      sockets.add(client).add(daemon);
      const end = () => {
        client.destroy();
        daemon.destroy();
      };
      client.on('close', () => sockets.delete(client));
      daemon.on('close', () => sockets.delete(daemon));
      client.on('error', end);
      daemon.on('error', end);
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    name: `Docker over TCP+TLS (127.0.0.1:${port}, client certificate)`,
    docker: new Dockerode({
      host: '127.0.0.1',
      port,
      protocol: 'https',
      ca: read('ca.pem'),
      cert: read('client.pem'),
      key: read('client-key.pem'),
    }),
    cli: [
      '-H',
      `tcp://127.0.0.1:${port}`,
      '--tlsverify',
      '--tlscacert',
      join(folder, 'ca.pem'),
      '--tlscert',
      join(folder, 'client.pem'),
      '--tlskey',
      join(folder, 'client-key.pem'),
    ],
    close: async () => {
      // Not waited for: the listener's close may wait on a connection the client never finished.
      server.close();
      for (const socket of sockets) socket.destroy();
    },
  };
}

/**
 * Podman's Docker-compatible service: the one of TOOLHOST_TEST_PODMAN_SOCKET (test/environments/setup-podman.sh, with
 * the test image loaded), or else one started here on a socket of its own (`podman system service`) with the test
 * image copied from Docker; a string says why it is skipped.
 */
async function podmanEngine(folder: string): Promise<Engine | string> {
  const given = process.env.TOOLHOST_TEST_PODMAN_SOCKET;
  if (given)
    return {
      name: `Podman (podman system service, ${given})`,
      docker: new Dockerode({ socketPath: given }),
      cli: ['-H', `unix://${given}`],
    };
  if (spawnSync('podman', ['--version']).status !== 0) return 'podman is not installed on this machine';
  const copied = spawnSync('sh', ['-c', `docker save ${IMAGE} | podman load -q`], { encoding: 'utf8' });
  if (copied.status !== 0) return `the test image could not be copied into Podman: ${copied.stderr.trim().slice(0, 200)}`;
  const socket = join(folder, 'podman.sock');
  const service = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { stdio: 'ignore' });
  for (let tries = 0; tries < 100 && !existsSync(socket); tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  if (!existsSync(socket)) {
    service.kill();
    return 'podman system service did not open its socket within 10 s';
  }
  const probe = spawnSync('docker', ['-H', `unix://${socket}`, 'run', '--rm', '--network', 'none', IMAGE, 'true'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    service.kill();
    return `Podman cannot start a container here: ${(probe.stderr.split('\n').find((line) => line.includes('Error')) ?? probe.stderr).trim().slice(0, 240)}`;
  }
  return {
    name: `Podman (podman system service, ${socket})`,
    docker: new Dockerode({ socketPath: socket }),
    cli: ['-H', `unix://${socket}`],
    close: async () => {
      service.kill();
    },
  };
}

type Outcome = Awaited<ReturnType<typeof fleet>>;

/** The engine's short name, as FLEET_ENGINES spells it. */
const engineKey = (engine: Engine) => (engine.name.startsWith('Podman') ? 'podman' : engine.name.includes('TLS') ? 'tls' : 'docker');

function report(engine: Engine, round: number, ours: Outcome, cli: Outcome, loadBefore: number[]): void {
  const row = (way: string, tally: Outcome) =>
    `| ${way.padEnd(10)} | ${String(tally.latencies.length).padStart(5)} | ${String(tally.lost).padStart(4)} | ${String(tally.left).padStart(4)} | ${percentile(tally.latencies, 0.5).toFixed(0).padStart(7)} | ${percentile(tally.latencies, 0.99).toFixed(0).padStart(7)} | ${(tally.wallMs / 1000).toFixed(1).padStart(6)} |`;
  console.log(`\n${engine.name}, round ${round + 1}/${ROUNDS}: ${AGENTS} agents x (${EXECS} exec + ${PATCHES} patches)`);
  console.log('| way        | calls |lost | left | p50 ms  | p99 ms  | wall s |');
  console.log('|------------|-------|-----|------|---------|---------|--------|');
  console.log(row('toolhost', ours));
  console.log(row('docker CLI', cli));
  const ratio = (fraction: number) => Number((percentile(ours.latencies, fraction) / percentile(cli.latencies, fraction)).toFixed(2));
  for (const [way, tally] of [
    ['toolhost', ours],
    ['docker CLI', cli],
  ] as const) {
    if (tally.firstError) console.log(`first loss (${way}): ${tally.firstError}`);
  }
  console.log(`ratio toolhost / docker CLI: p50 ${ratio(0.5)}, p99 ${ratio(0.99)} (goal <= 1.1)`);
  // Which calls make the tail: exec_command calls and patches apart.
  const kinds = (tally: Outcome) =>
    Object.fromEntries(
      (['exec', 'patch'] as const).map((kind) => [
        kind,
        { p50: Math.round(percentile(tally.byKind[kind], 0.5)), p99: Math.round(percentile(tally.byKind[kind], 0.99)) },
      ]),
    );
  for (const [way, tally] of [
    ['toolhost', ours],
    ['docker CLI', cli],
  ] as const) {
    const split = kinds(tally);
    console.log(`${way}: exec p50/p99 ${split.exec!.p50}/${split.exec!.p99} ms, patch p50/p99 ${split.patch!.p50}/${split.patch!.p99} ms`);
  }
  const figures = (tally: Outcome) => ({
    calls: tally.latencies.length,
    lost: tally.lost,
    left: tally.left,
    p50: Math.round(percentile(tally.latencies, 0.5)),
    p99: Math.round(percentile(tally.latencies, 0.99)),
    byKind: kinds(tally),
    wallS: Number((tally.wallMs / 1000).toFixed(1)),
  });
  const line = {
    engine: engineKey(engine),
    round: round + 1,
    agents: AGENTS,
    execs: EXECS,
    patches: PATCHES,
    toolhost: figures(ours),
    cli: figures(cli),
    ratioP50: ratio(0.5),
    ratioP99: ratio(0.99),
    // The 1, 5 and 15 minute load averages before the engine's pass and after it.
    loadBefore: loadBefore.map((value) => Number(value.toFixed(2))),
    loadAfter: loadavg().map((value) => Number(value.toFixed(2))),
  };
  console.log(`FLEET ${JSON.stringify(line)}`);
}

export default async function (): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-bench-fleet-'));
  const engines: Engine[] = [];
  try {
    const host = process.env.DOCKER_HOST ?? 'unix:///var/run/docker.sock';
    engines.push({ name: `Docker (${host})`, docker: new Dockerode(), cli: [] });
    if (host.startsWith('unix://')) engines.push(await tlsEngine(host.slice('unix://'.length), folder));
    else console.log('Docker over TLS: skipped (DOCKER_HOST is not a unix socket to put the TLS listener in front of)');
    const podman = await podmanEngine(folder);
    if (typeof podman === 'string') console.log(`Podman: skipped (${podman})`);
    else engines.push(podman);
    // FLEET_ENGINES=docker,tls,podman picks engines (default all).
    const picked = (process.env.FLEET_ENGINES ?? 'docker,tls,podman').split(',');
    for (let round = 0; round < ROUNDS; round++) {
      for (const engine of engines.filter((candidate) => picked.includes(engineKey(candidate)))) {
        const load = loadavg();
        // The two ways take turns at going first, so neither always meets the other's leftovers.
        const ours = round % 2 === 0 ? await fleet(engine, 'toolhost') : undefined;
        const cli = await fleet(engine, 'docker CLI');
        report(engine, round, ours ?? (await fleet(engine, 'toolhost')), cli, load);
      }
    }
  } finally {
    for (const engine of engines) await engine.close?.();
    rmSync(folder, { recursive: true, force: true });
  }
}
