import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolHostError } from '@toolhost/core';
import { createHostKeyPolicy, defaultKnownHostsFiles } from './host-key-policy.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const line = (name: string) => fixture(name).trim();
const blob = (name: string) => Buffer.from(line(name).split(' ')[1]!, 'base64');
const ed25519 = blob('host-ed25519.pub');
const rsa = blob('host-rsa.pub');
const other = blob('other-ed25519.pub');
const ED25519 = 'SHA256:ruBR5X3xCy9s6JKTCI6r5YyA4e01StZJPsR6w8LpWbU';
const OTHER = 'SHA256:GEijxbvuTNRJe74vJvtt4xzfZLgxwywz/UZowXST0gQ';

const folders: string[] = [];
const freshFolder = () => {
  const folder = mkdtempSync(join(tmpdir(), 'toolhost-known-hosts-'));
  folders.push(folder);
  return folder;
};
afterEach(() => {
  vi.unstubAllEnvs();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const refusal = (error: ToolHostError | undefined) => (error ? { code: error.code, message: error.message } : undefined);

describe('createHostKeyPolicy with knownHosts', () => {
  it('trusts a listed key and refuses an unknown host, naming host, port, key type, fingerprint and how to trust it', async () => {
    const policy = await createHostKeyPolicy({
      host: '127.0.0.1',
      port: 42022,
      knownHosts: `[127.0.0.1]:42022 ${line('host-ed25519.pub')}\n`,
    });
    expect(policy.check(ed25519)).toBeUndefined();
    const elsewhere = await createHostKeyPolicy({ host: '127.0.0.1', port: 42022, knownHosts: `127.0.0.1 ${line('host-ed25519.pub')}\n` });
    expect(refusal(elsewhere.check(ed25519))).toEqual({
      code: 'host_key_unknown',
      message: `The SSH host 127.0.0.1 port 42022 is not known: it offered ssh-ed25519 key ${ED25519}, and no known_hosts entry names [127.0.0.1]:42022 (checked: knownHosts text). Refused. To trust it, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then add the line that ssh-keyscan -p 42022 127.0.0.1 prints to knownHosts; or pass hostKey: '${ED25519}'.`,
    });
  });

  it('refuses a changed key, naming both fingerprints, where the old one is and how to replace it', async () => {
    const folder = freshFolder();
    const file = join(folder, 'known_hosts');
    writeFileSync(file, `# fleet\nbuild-7.internal ${line('host-ed25519.pub')}\n`);
    const policy = await createHostKeyPolicy({ host: 'build-7.internal', port: 22, knownHosts: file });
    expect(refusal(policy.check(other))).toEqual({
      code: 'host_key_changed',
      message: `The SSH host key of build-7.internal has changed: the host offered ssh-ed25519 key ${OTHER}, but known_hosts lists ssh-ed25519 key ${ED25519} (${file}:2) for build-7.internal. Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or given new keys. Refused. If the new key is expected, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), remove the old entry (ssh-keygen -R build-7.internal -f ${file}), then run ssh-keyscan build-7.internal >> ${file}.`,
    });
    expect(policy.knownKeyTypes).toEqual(['ssh-ed25519']);
  });

  it('refuses a revoked key', async () => {
    const policy = await createHostKeyPolicy({ host: 'retired.internal', port: 22, knownHosts: fixture('known_hosts') });
    expect(refusal(policy.check(ed25519))).toEqual({
      code: 'host_key_revoked',
      message: `The SSH host retired.internal offered ssh-ed25519 key ${ED25519}, which knownHosts text:10 marks @revoked. Refused. The host needs a new key; once it has one, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then add the line that ssh-keyscan retired.internal prints to knownHosts.`,
    });
  });

  it('says that @cert-authority lines are not supported when they are all that names the host', async () => {
    const policy = await createHostKeyPolicy({ host: 'x.ca.internal', port: 22, knownHosts: fixture('known_hosts') });
    const error = policy.check(other);
    expect(error?.code).toBe('host_key_unknown');
    expect(error?.message).toContain(
      ' @cert-authority lines name this host, but host certificates are not supported: list the host key itself.',
    );
  });

  it('reads an array of paths and texts, each a source; a one-line text is text, not a path', async () => {
    const folder = freshFolder();
    const file = join(folder, 'hashed');
    writeFileSync(file, fixture('known_hosts.hashed'));
    const policy = await createHostKeyPolicy({
      host: 'build-8.internal',
      port: 22,
      knownHosts: [file, `build-8.internal ${line('host-rsa.pub')}`],
    });
    expect(policy.check(rsa)).toBeUndefined();
    expect(policy.knownKeyTypes).toEqual(['ssh-rsa']);
    const hashedOnly = await createHostKeyPolicy({ host: '10.0.0.7', port: 22, knownHosts: [file] });
    expect(hashedOnly.check(ed25519)).toBeUndefined();
    expect(hashedOnly.check(rsa)?.message).toContain(`known_hosts lists ssh-ed25519 key ${ED25519} (${file}:2) for 10.0.0.7.`);
    const empty = await createHostKeyPolicy({ host: 'build-8.internal', port: 22, knownHosts: [] });
    expect(empty.check(rsa)?.message).toContain('(checked: nothing)');
  });

  it('refuses a knownHosts path that cannot be read, and values that are not strings', async () => {
    const missing = join(freshFolder(), 'missing');
    await expect(createHostKeyPolicy({ host: 'h', port: 22, knownHosts: missing })).rejects.toMatchObject({
      code: 'invalid_options',
      message: expect.stringMatching(new RegExp(`^knownHosts "${missing}" is neither a readable file nor known_hosts text: ENOENT`)),
    });
    await expect(createHostKeyPolicy({ host: 'h', port: 22, knownHosts: [Buffer.from('x') as unknown as string] })).rejects.toMatchObject({
      code: 'invalid_options',
      message:
        "knownHosts must be a path or the text of a known_hosts file (or an array of them), got bytes (give the file's path, or its text read as 'utf8')",
    });
  });
});

describe('createHostKeyPolicy with the default files', () => {
  it("reads OpenSSH's user and global known_hosts files, and names them when the host is in none", async () => {
    const home = freshFolder();
    vi.stubEnv('HOME', home);
    expect(defaultKnownHostsFiles()).toEqual([
      join(home, '.ssh/known_hosts'),
      join(home, '.ssh/known_hosts2'),
      '/etc/ssh/ssh_known_hosts',
      '/etc/ssh/ssh_known_hosts2',
    ]);
    const unknown = await createHostKeyPolicy({ host: 'build-7.internal', port: 2222, knownHosts: undefined });
    expect(refusal(unknown.check(ed25519))).toEqual({
      code: 'host_key_unknown',
      message: `The SSH host build-7.internal port 2222 is not known: it offered ssh-ed25519 key ${ED25519}, and no known_hosts entry names [build-7.internal]:2222 (checked: ${defaultKnownHostsFiles().join(', ')}). Refused. To trust it, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then run ssh-keyscan -p 2222 build-7.internal >> ~/.ssh/known_hosts (ssh-keygen -F '[build-7.internal]:2222' then shows the entry); or pass hostKey: '${ED25519}' or knownHosts.`,
    });
    mkdirSync(join(home, '.ssh'));
    writeFileSync(join(home, '.ssh/known_hosts2'), fixture('known_hosts.hashed'));
    const known = await createHostKeyPolicy({ host: 'Build-7.Internal', port: 2222 });
    expect(known.check(blob('host-ecdsa.pub'))).toBeUndefined();
    expect(known.check(ed25519)?.code).toBe('host_key_changed');
  });
});

describe('createHostKeyPolicy with hostKey', () => {
  it('trusts the pinned key, given as a public key line, its base64 or its fingerprint; refuses any other', async () => {
    for (const hostKey of [
      line('host-ed25519.pub'),
      line('host-ed25519.pub').split(' ')[1]!,
      ED25519,
      `${ED25519}=`,
      [line('host-rsa.pub'), ED25519],
    ]) {
      const policy = await createHostKeyPolicy({ host: 'h', port: 22, hostKey });
      expect(policy.check(ed25519)).toBeUndefined();
      expect(policy.check(other)?.code).toBe('host_key_changed');
    }
    const policy = await createHostKeyPolicy({ host: 'h', port: 2200, hostKey: `${line('host-ed25519.pub')} root@h` });
    expect(policy.knownKeyTypes).toEqual(['ssh-ed25519']);
    expect(refusal(policy.check(other))).toEqual({
      code: 'host_key_changed',
      message: `The SSH host key of h port 2200 does not match hostKey: the host offered ssh-ed25519 key ${OTHER}, hostKey pins ${ED25519}. Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or given new keys. Refused. If the new key is expected, check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub), then pin '${OTHER}'.`,
    });
  });

  it('refuses a hostKey that is no key or fingerprint', async () => {
    for (const hostKey of [
      'SHA256:short',
      'ssh-ed25519 !!!',
      'ssh-rsa ' + line('host-ed25519.pub').split(' ')[1],
      '',
      [],
      [7 as unknown as string],
    ]) {
      await expect(createHostKeyPolicy({ host: 'h', port: 22, hostKey })).rejects.toMatchObject({ code: 'invalid_options' });
    }
  });
});
