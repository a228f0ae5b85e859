import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ToolHostError } from '@toolhost/core';
import { createSshEnvironment, type SshEnvironmentOptions } from '@toolhost/ssh';
import { ENGINES, needsEngine, sshSettings } from './engines.js';

// The host key checks against the test sshd (three host keys: ed25519, ecdsa, rsa), with known_hosts files written by
// OpenSSH's own ssh-keyscan and ssh-keygen. Availability is reported (and enforced in CI) by conformance.test.ts.
const sshMissing = await ENGINES.find((engine) => engine.name === 'ssh')!.unavailable();

const folders: string[] = [];
const freshFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-host-keys-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  vi.unstubAllEnvs();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** What the tests know of the test sshd, read only where it runs (a skipped suite's body is still collected). */
function readHostFacts() {
  const settings = sshSettings()!;
  const { knownHosts: knownHostsFile, ...login } = settings;
  const port = String(settings.port);
  const name = `[${settings.host}]:${port}`;
  const scanned = readFileSync(knownHostsFile, 'utf8');
  const lineOf = (type: string) => scanned.split('\n').find((line) => line.split(' ')[1] === type)!;
  /** `ssh-keygen -lf` of the host's known_hosts lines: the fingerprint of each key type, as OpenSSH prints it. */
  const fingerprints = Object.fromEntries(
    execFileSync('ssh-keygen', ['-lf', knownHostsFile], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => [/\((\w+)\)$/.exec(line)![1], line.split(' ')[1]]),
  ) as Record<'ED25519' | 'ECDSA' | 'RSA', string>;
  return { settings, knownHostsFile, login, port, name, scanned, lineOf, fingerprints };
}

describe('ssh host keys', needsEngine('ssh', sshMissing), () => {
  const { settings, knownHostsFile, login, port, name, scanned, lineOf, fingerprints } =
    sshMissing === undefined ? readHostFacts() : ({} as ReturnType<typeof readHostFacts>);

  /** Creates and closes an environment; returns ssh2's debug lines (the negotiation, and whether login started). */
  async function connect(options: Partial<SshEnvironmentOptions>): Promise<string[]> {
    const debug: string[] = [];
    const environment = await createSshEnvironment({ ...login, ...options, connect: { debug: (line) => debug.push(line) } });
    await environment.close();
    return debug;
  }

  /** The refusal of a connection, and whether ssh2 got as far as asking to log in. */
  async function refusal(options: Partial<SshEnvironmentOptions>): Promise<{ code: string; message: string; loginStarted: boolean }> {
    const debug: string[] = [];
    const error = await createSshEnvironment({ ...login, ...options, connect: { debug: (line) => debug.push(line) } }).then(
      async (environment) => {
        await environment.close();
        throw new Error('the connection was not refused');
      },
      (caught: unknown) => caught,
    );
    expect(ToolHostError.is(error)).toBe(true);
    const { code, message } = error as ToolHostError;
    return { code, message, loginStarted: debug.some((line) => line.includes('SERVICE_REQUEST (ssh-userauth)')) };
  }

  test('the [host]:port entries ssh-keyscan writes connect, as a file or text; any one key type alone is enough', async () => {
    expect(
      scanned
        .split('\n')
        .filter(Boolean)
        .every((line) => line.startsWith(`${name} `)),
    ).toBe(true);
    await connect({ knownHosts: knownHostsFile });
    await connect({ knownHosts: scanned });
    // As OpenSSH does, the client asks first for a key type it knows, so the host offers that one.
    const negotiated: string[] = [];
    for (const type of ['ssh-ed25519', 'ecdsa-sha2-nistp256', 'ssh-rsa']) {
      const debug = await connect({ knownHosts: lineOf(type) });
      negotiated.push(debug.find((line) => line.startsWith('Handshake: Host key format: '))!.slice('Handshake: Host key format: '.length));
    }
    expect(negotiated).toEqual(['ssh-ed25519', 'ecdsa-sha2-nistp256', 'rsa-sha2-512']);
  });

  test('hashed entries (ssh-keyscan -H) connect', async () => {
    const hashed = execFileSync('ssh-keyscan', ['-H', '-p', port, settings.host], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    expect(
      hashed
        .split('\n')
        .filter(Boolean)
        .every((line) => line.startsWith('|1|')),
    ).toBe(true);
    await connect({ knownHosts: hashed });
    const file = join(freshFolder(), 'known_hosts');
    writeFileSync(
      file,
      hashed.split('\n').find((line) => line.includes(' ecdsa-sha2-nistp256 '))!,
    );
    await connect({ knownHosts: file });
  });

  test('an unknown host is refused before login, naming host, port, key type and fingerprint, and how to trust it', async () => {
    // The host listed without its port (port 22's form) and another host: neither names [127.0.0.1]:42022.
    const elsewhere = `${settings.host} ${lineOf('ssh-ed25519').split(' ').slice(1).join(' ')}\nbuild-7.internal ${lineOf('ssh-rsa').split(' ').slice(1).join(' ')}\n`;
    const file = join(freshFolder(), 'known_hosts');
    writeFileSync(file, elsewhere);
    const refused = await refusal({ knownHosts: file });
    expect(refused).toEqual({
      code: 'host_key_unknown',
      message: `The SSH host ${settings.host} port ${port} is not known: it offered ssh-ed25519 key ${fingerprints.ED25519}, and no known_hosts entry names ${name} (checked: ${file}). Refused. To trust it, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then run ssh-keyscan -p ${port} ${settings.host} >> ${file} (ssh-keygen -F '${name}' -f ${file} then shows the entry); or pass hostKey: '${fingerprints.ED25519}'.`,
      loginStarted: false,
    });
    // The command the message gives finds the entry once it is added.
    execFileSync('sh', ['-c', `ssh-keyscan -p ${port} ${settings.host} >> ${file} 2>/dev/null`]);
    expect(execFileSync('ssh-keygen', ['-F', name, '-f', file], { encoding: 'utf8' })).toContain(`# Host ${name} found: line 3`);
    await connect({ knownHosts: file });
    const empty = join(freshFolder(), 'known_hosts');
    writeFileSync(empty, '');
    expect(await refusal({ knownHosts: empty })).toMatchObject({ code: 'host_key_unknown', loginStarted: false });
  });

  test('a changed key is refused before login, naming the offered and the listed fingerprints', async () => {
    const folder = freshFolder();
    execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', '', '-f', join(folder, 'impostor')]);
    const impostor = readFileSync(join(folder, 'impostor.pub'), 'utf8').trim();
    const impostorFingerprint = execFileSync('ssh-keygen', ['-lf', join(folder, 'impostor.pub')], { encoding: 'utf8' }).split(' ')[1];
    const file = join(folder, 'known_hosts');
    writeFileSync(file, `# an old entry\n${name} ${impostor}\n`);
    expect(await refusal({ knownHosts: file })).toEqual({
      code: 'host_key_changed',
      message: `The SSH host key of ${settings.host} port ${port} has changed: the host offered ssh-ed25519 key ${fingerprints.ED25519}, but known_hosts lists ssh-ed25519 key ${impostorFingerprint} (${file}:2) for ${name}. Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or given new keys. Refused. If the new key is expected, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), remove the old entry (ssh-keygen -R '${name}' -f ${file}), then run ssh-keyscan -p ${port} ${settings.host} >> ${file}.`,
      loginStarted: false,
    });
    expect(await refusal({ hostKey: impostor })).toMatchObject({ code: 'host_key_changed', loginStarted: false });
  });

  test('a key marked @revoked is refused, even where an entry lists it', async () => {
    const revoked = `${scanned}@revoked ${lineOf('ssh-ed25519')}\n`;
    expect(await refusal({ knownHosts: revoked })).toMatchObject({
      code: 'host_key_revoked',
      message: expect.stringContaining(
        `The SSH host ${settings.host} port ${port} offered ssh-ed25519 key ${fingerprints.ED25519}, which knownHosts text:4 marks @revoked. Refused.`,
      ),
      loginStarted: false,
    });
  });

  test("by default ~/.ssh/known_hosts decides: unknown until ssh-keyscan's entries are added", async () => {
    const home = freshFolder();
    vi.stubEnv('HOME', home);
    const refused = await refusal({});
    expect(refused.code).toBe('host_key_unknown');
    expect(refused.message).toContain(
      `(checked: ${join(home, '.ssh/known_hosts')}, ${join(home, '.ssh/known_hosts2')}, /etc/ssh/ssh_known_hosts, /etc/ssh/ssh_known_hosts2)`,
    );
    expect(refused.message).toContain(
      `then run ssh-keyscan -p ${port} ${settings.host} >> ~/.ssh/known_hosts (ssh-keygen -F '${name}' then shows the entry); or pass hostKey: '${fingerprints.ED25519}' or knownHosts.`,
    );
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/known_hosts'), scanned);
    await connect({});
  });

  test('hostKey pins the host by public key line or base64 (any key type), or by the SHA256 fingerprint of the key it prefers', async () => {
    const ecdsa = lineOf('ecdsa-sha2-nistp256').split(' ').slice(1);
    await connect({ hostKey: ecdsa.join(' ') });
    await connect({ hostKey: lineOf('ssh-rsa').split(' ')[2] });
    await connect({ hostKey: fingerprints.ED25519 });
    await connect({ hostKey: [fingerprints.RSA, ecdsa.join(' ')] });
    // A fingerprint does not say which key type to ask for: the host offers its ed25519 key, which the message says.
    expect(await refusal({ hostKey: fingerprints.RSA })).toMatchObject({
      code: 'host_key_changed',
      message: expect.stringContaining(
        `the host offered ssh-ed25519 key ${fingerprints.ED25519}, hostKey pins ${fingerprints.RSA}. (A fingerprint alone does not name a key type, so the host offered the key it prefers; to pin a key of another type, give its public key line.)`,
      ),
      loginStarted: false,
    });
  });

  test('hostVerifier takes precedence; insecureAcceptAnyHostKey trusts any key', async () => {
    const home = freshFolder();
    vi.stubEnv('HOME', home);
    const offered: Buffer[] = [];
    await connect({ knownHosts: '', hostVerifier: (key: Buffer) => offered.push(key) > 0 });
    expect(offered).toHaveLength(1);
    expect(await refusal({ knownHosts: scanned, hostVerifier: () => false })).toMatchObject({
      code: 'invalid_options',
      message: 'SSH environment could not start: Host denied (verification failed)',
    });
    await connect({ insecureAcceptAnyHostKey: true });
  });
});
