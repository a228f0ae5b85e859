import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCliOptions, parseMemorySize, parseSshDestination } from './cli-options.js';
import { dockerCreateOptions } from './cli-target.js';
import { loadOptionalPackage } from './optional-package.js';

const at = (base: string, path: string) => resolve(base, path);
const parse = (argv: string[], env: Record<string, string | undefined> = {}) => parseCliOptions(argv, '/w', at, env);

describe('toolhost-mcp targets', () => {
  it('--docker-image: /workspace, no network, 2 GiB, 2 CPUs and 1024 processes unless told otherwise', () => {
    expect(parse(['--docker-image', 'node:20'])).toMatchObject({
      target: {
        kind: 'docker-image',
        image: 'node:20',
        root: '/workspace',
        network: 'none',
        memoryBytes: 2 * 1024 ** 3,
        cpus: 2,
        pids: 1024,
      },
    });
    expect(
      parse([
        '--docker-image',
        'node:20',
        '--root',
        '/src',
        '--mount',
        'project',
        '--docker-network',
        'sandbox-net',
        '--docker-memory',
        '512m',
        '--docker-cpus',
        '1.5',
        '--docker-pids',
        '0',
        '--docker-user',
        '1000:1000',
      ]),
    ).toMatchObject({
      target: {
        kind: 'docker-image',
        image: 'node:20',
        root: '/src',
        mount: '/w/project',
        network: 'sandbox-net',
        memoryBytes: 512 * 1024 ** 2,
        cpus: 1.5,
        pids: 0,
        user: '1000:1000',
      },
    });
    expect(parse(['--docker-image', 'node:20', '--docker-memory', '0', '--docker-cpus', '0'])).toMatchObject({
      target: { memoryBytes: 0, cpus: 0 },
    });
  });

  it('--docker-container and --ssh need --root; --ssh takes a key file or an agent, and known_hosts files', () => {
    expect(parse(['--docker-container', 'box', '--root', '/app'])).toMatchObject({
      target: { kind: 'docker-container', container: 'box', root: '/app' },
    });
    expect(parse(['--docker-container', 'box'])).toEqual({
      error: '--docker-container needs --root DIR: the folder in the container the tools work in (an absolute path)',
    });
    expect(
      parse([
        '--ssh',
        'agent@build-7:2222',
        '--root',
        '/srv/repo',
        '--ssh-key',
        'id_ed25519',
        '--ssh-known-hosts',
        'kh1',
        '--ssh-known-hosts',
        '/etc/kh2',
      ]),
    ).toEqual({
      target: {
        kind: 'ssh',
        username: 'agent',
        host: 'build-7',
        port: 2222,
        root: '/srv/repo',
        keyFile: '/w/id_ed25519',
        knownHosts: ['/w/kh1', '/etc/kh2'],
      },
      profile: 'default',
      shellProfile: 'auto',
      catalog: undefined,
    });
    expect(parse(['--ssh', 'agent@build-7', '--root', '/srv'], { SSH_AUTH_SOCK: '/run/agent.sock' })).toMatchObject({
      target: { port: 22, agent: '/run/agent.sock' },
    });
    const pins = [
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl',
      'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8',
    ];
    expect(
      parse(['--ssh', 'agent@build-7', '--root', '/srv', '--ssh-key', 'k', '--ssh-host-key', pins[0], '--ssh-host-key', pins[1]]),
    ).toMatchObject({ target: { hostKeys: pins } });
    expect(
      parse(['--ssh', 'agent@build-7', '--root', '/srv', '--ssh-key', 'k', '--ssh-host-key', pins[1], '--ssh-known-hosts', 'kh']),
    ).toEqual({
      error: 'give --ssh-known-hosts or --ssh-host-key, not both (a pinned key replaces known_hosts)',
    });
    expect(parse(['--ssh', 'agent@build-7', '--root', '/srv'])).toEqual({
      error: '--ssh needs --ssh-key FILE, or an ssh-agent (SSH_AUTH_SOCK) holding the key',
    });
    expect(parse(['--ssh', 'agent@build-7', '--ssh-key', 'k'])).toEqual({
      error: '--ssh needs --root DIR: the folder on the host the tools work in (an absolute path)',
    });
  });

  it('refuses flags that contradict each other or do not fit the target', () => {
    expect(parse(['--workspace', '.', '--docker-image', 'node:20'])).toEqual({
      error: 'give one of --workspace, --docker-image, --docker-container or --ssh, not --workspace and --docker-image',
    });
    expect(parse(['--root', '/x'])).toEqual({
      error: '--root applies only with --docker-image, --docker-container or --ssh (--workspace names the folder itself)',
    });
    expect(parse(['--docker-container', 'box', '--root', '/app', '--docker-memory', '1g', '--mount', '.'])).toEqual({
      error: '--mount and --docker-memory apply only with --docker-image',
    });
    expect(parse(['--ssh', 'a@b', '--root', '/x', '--ssh-key', 'k', '--docker-user', 'me'])).toEqual({
      error: '--docker-user applies only with --docker-image or --docker-container',
    });
    expect(parse(['--docker-image', 'node:20', '--ssh-known-hosts', 'kh'])).toEqual({ error: '--ssh-known-hosts applies only with --ssh' });
    expect(parse(['--docker-image', 'node:20', '--root', 'relative'])).toEqual({
      error: '--root must be an absolute path (the folder in the container), got relative',
    });
    expect(parse(['--docker-image', ''])).toEqual({ error: '--docker-image must not be empty' });
    expect(parse(['--docker-image', 'node:20', '--docker-network', ''])).toEqual({
      error: '--docker-network must name a network (none: no network)',
    });
    for (const memory of ['lots', '1t', '5m', '-1g', '']) {
      expect(parse(['--docker-image', 'node:20', `--docker-memory=${memory}`]), memory).toEqual({
        error: `--docker-memory must be a size like 512m or 4g (at least 6m; 0: no limit), got ${memory}`,
      });
    }
    for (const cpus of ['many', '-1', '0.001', '2000', '']) {
      expect(parse(['--docker-image', 'node:20', `--docker-cpus=${cpus}`]), cpus).toEqual({
        error: `--docker-cpus must be a number of CPUs from 0.01 to 1024, like 1.5 (0: no limit), got ${cpus}`,
      });
    }
    for (const pids of ['1.5', '-3', 'lots']) {
      expect(parse(['--docker-image', 'node:20', `--docker-pids=${pids}`]), pids).toEqual({
        error: `--docker-pids must be a whole number of processes (0: no limit), got ${pids}`,
      });
    }
    for (const destination of ['build-7', '@build-7', 'agent@', 'agent@host:0', 'agent@host:99999', 'agent@::1', 'a@b@c']) {
      expect(parse(['--ssh', destination, '--root', '/x', '--ssh-key', 'k']), destination).toEqual({
        error: `--ssh must be USER@HOST or USER@HOST:PORT (USER@[::1]:2222 for an IPv6 address), got ${destination}`,
      });
    }
  });

  it('reads sizes as Docker writes them and SSH destinations as ssh does', () => {
    expect([
      parseMemorySize('1024'),
      parseMemorySize('64k'),
      parseMemorySize('1.5G'),
      parseMemorySize('6m'),
      parseMemorySize('1gb'),
    ]).toEqual([1024, 65_536, 1.5 * 1024 ** 3, 6 * 1024 ** 2, undefined]);
    expect(parseSshDestination('agent@[::1]:2222')).toEqual({ username: 'agent', host: '::1', port: 2222 });
    expect(parseSshDestination('agent@10.0.0.7')).toEqual({ username: 'agent', host: '10.0.0.7', port: 22 });
  });

  it('gives the session container its limits, its network and the mount', () => {
    const target = {
      kind: 'docker-image',
      image: 'node:20',
      root: '/src',
      mount: '/home/me/project',
      network: 'none',
      memoryBytes: 512 * 1024 ** 2,
      cpus: 1.5,
      pids: 256,
    } as const;
    expect(dockerCreateOptions(target)).toEqual({
      Labels: { 'dev.toolhost.environment': 'docker', 'dev.toolhost.mcp-session': 'true' },
      HostConfig: {
        NetworkMode: 'none',
        Memory: 512 * 1024 ** 2,
        MemorySwap: 512 * 1024 ** 2,
        CpuPeriod: 100_000,
        CpuQuota: 150_000,
        PidsLimit: 256,
        Mounts: [{ Type: 'bind', Source: '/home/me/project', Target: '/src' }],
      },
    });
    expect(
      dockerCreateOptions({ ...target, mount: undefined, memoryBytes: 0, cpus: 0, pids: 0, network: 'sandbox-net' }).HostConfig,
    ).toEqual({ NetworkMode: 'sandbox-net' });
  });
});

describe('optional packages', () => {
  it('names the missing package and how to install it; other failures pass through', async () => {
    const missing = Object.assign(new Error("Cannot find package '@toolhost/docker' imported from /x/cli.js"), {
      code: 'ERR_MODULE_NOT_FOUND',
    });
    await expect(loadOptionalPackage('@toolhost/docker', '--docker-image', () => Promise.reject(missing))).rejects.toMatchObject({
      code: 'unsupported',
      message:
        '--docker-image needs the package @toolhost/docker, which is not installed: install it beside @toolhost/mcp (npm install @toolhost/docker), or run npx -p @toolhost/mcp -p @toolhost/docker toolhost-mcp --docker-image ...',
    });
    const inner = Object.assign(new Error("Cannot find package 'dockerode' imported from /x/docker.js"), { code: 'ERR_MODULE_NOT_FOUND' });
    await expect(loadOptionalPackage('@toolhost/docker', '--docker-image', () => Promise.reject(inner))).rejects.toBe(inner);
    await expect(loadOptionalPackage('@toolhost/ssh', '--ssh', () => import('@toolhost/ssh'))).resolves.toHaveProperty(
      'createSshEnvironment',
    );
  });
});
