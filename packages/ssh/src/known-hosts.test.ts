import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { checkKnownHostKey, entryNamesHost, knownHostsName, parseKnownHosts } from './known-hosts.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const blob = (name: string) => Buffer.from(fixture(name).trim().split(' ')[1]!, 'base64');
const ed25519 = blob('host-ed25519.pub');
const ecdsa = blob('host-ecdsa.pub');
const rsa = blob('host-rsa.pub');
const other = blob('other-ed25519.pub');
const plain = parseKnownHosts(fixture('known_hosts'), 'known_hosts');
const hashed = parseKnownHosts(fixture('known_hosts.hashed'), 'known_hosts.hashed');

describe('parseKnownHosts', () => {
  it('keeps entries with their marker, file and line; skips comments, blank, unknown-marker and truncated lines', () => {
    expect(plain.map((entry) => [entry.line, entry.marker ?? '', entry.hosts, entry.keyType])).toEqual([
      [2, '', 'build-7.internal,10.0.0.7', 'ssh-ed25519'],
      [3, '', '[build-7.internal]:2222', 'ecdsa-sha2-nistp256'],
      [4, '', 'BUILD-8.Internal', 'ssh-rsa'],
      [5, '', '*.fleet.internal,!bastion.fleet.internal', 'ssh-ed25519'],
      [6, '', 'ci-?.fleet.test', 'ecdsa-sha2-nistp256'],
      [7, '', 'bastion.fleet.internal', 'ssh-ed25519'],
      [9, '', 'retired.internal', 'ssh-ed25519'],
      [10, 'revoked', 'retired.internal', 'ssh-ed25519'],
      [11, 'cert-authority', '*.ca.internal', 'ssh-ed25519'],
      [15, '', 'mismatched.internal', 'ssh-rsa'],
    ]);
    expect(plain.every((entry) => entry.source === 'known_hosts')).toBe(true);
  });

  it('reads CRLF line ends and tabs', () => {
    const [entry] = parseKnownHosts(`# comment\r\n\thost-a\t ${fixture('host-rsa.pub').trim()}\r\n`, 'text');
    expect(entry).toMatchObject({ hosts: 'host-a', keyType: 'ssh-rsa', line: 2, marker: undefined });
    expect(entry!.keyBase64).toBe(rsa.toString('base64'));
  });
});

describe('host names and patterns', () => {
  it('names a host as OpenSSH looks it up: lower case, [host]:port off port 22', () => {
    expect(knownHostsName('Build-7.Internal', 22)).toBe('build-7.internal');
    expect(knownHostsName('127.0.0.1', 42022)).toBe('[127.0.0.1]:42022');
    expect(knownHostsName('::1', 2222)).toBe('[::1]:2222');
  });

  it('matches comma lists, wildcards and negations as ssh-keygen -F does', () => {
    // Each name with the lines `ssh-keygen -F name -f __fixtures__/known_hosts` printed.
    const expected: Record<string, number[]> = {
      'build-7.internal': [2],
      '10.0.0.7': [2],
      '[build-7.internal]:2222': [3],
      'build-7.internal:2222': [],
      'build-8.internal': [4],
      'web.fleet.internal': [5],
      'bastion.fleet.internal': [7],
      'ci-1.fleet.test': [6],
      'ci-12.fleet.test': [],
      'retired.internal': [9, 10],
      'x.ca.internal': [11],
      'ca-like.internal': [],
      'mismatched.internal': [15],
    };
    const matched = Object.fromEntries(
      Object.keys(expected).map((name) => [name, plain.filter((entry) => entryNamesHost(entry, name)).map((entry) => entry.line)]),
    );
    expect(matched).toEqual(expected);
  });

  it('matches entries hashed by ssh-keygen -H (HMAC-SHA1 of the name, [host]:port included), and nothing else', () => {
    const lines = (name: string) => hashed.filter((entry) => entryNamesHost(entry, name)).map((entry) => entry.line);
    expect([
      lines('build-7.internal'),
      lines('10.0.0.7'),
      lines('[build-7.internal]:2222'),
      lines('build-8.internal'),
      lines('[build-7.internal]:2223'),
    ]).toEqual([[1], [2], [3], [], []]);
    expect(entryNamesHost({ hosts: '|1|bad' }, 'build-7.internal')).toBe(false);
    expect(entryNamesHost({ hosts: '|2|7/FOs3cnsfXavS29ufm7EiPcQv4=|WNNrPy4F+jp1f6FnuTg3/0qburs=' }, 'build-7.internal')).toBe(false);
  });

  it('reads * and ? anywhere in a pattern', () => {
    const names = (pattern: string, candidates: string[]) => candidates.filter((name) => entryNamesHost({ hosts: pattern }, name));
    expect(names('*', ['a', '[a]:2222'])).toEqual(['a', '[a]:2222']);
    expect(names('[*.fleet]:2222', ['[a.fleet]:2222', '[a.fleet]:22', 'a.fleet'])).toEqual(['[a.fleet]:2222']);
    expect(names('a*b*c', ['abc', 'aXbYc', 'aXbY', 'abcc', 'acb'])).toEqual(['abc', 'aXbYc', 'abcc']);
    expect(names('10.0.0.?', ['10.0.0.1', '10.0.0.12', '10.0.0.'])).toEqual(['10.0.0.1']);
    expect(names('!a,b', ['a', 'b', 'c'])).toEqual(['b']);
    expect(names('*,!*.internal', ['x.internal', 'x.example'])).toEqual(['x.example']);
  });
});

describe('checkKnownHostKey', () => {
  const verdict = (entries: typeof plain, name: string, key: Buffer) => {
    const result = checkKnownHostKey(entries, name, key);
    if (result.status === 'known' || result.status === 'revoked') return [result.status, result.match.entry.line];
    if (result.status === 'changed') return [result.status, result.listed.map((listed) => listed.entry.line)];
    return [result.status, result.certificateAuthorities];
  };

  it('knows a host whose entry holds the key, in plain and hashed files, any key type', () => {
    expect(verdict(plain, 'build-7.internal', ed25519)).toEqual(['known', 2]);
    expect(verdict(plain, '[build-7.internal]:2222', ecdsa)).toEqual(['known', 3]);
    expect(verdict(plain, 'build-8.internal', rsa)).toEqual(['known', 4]);
    expect(verdict(plain, 'web.fleet.internal', ed25519)).toEqual(['known', 5]);
    expect(verdict(hashed, '10.0.0.7', ed25519)).toEqual(['known', 2]);
    expect(verdict(hashed, '[build-7.internal]:2222', ecdsa)).toEqual(['known', 3]);
  });

  it('says changed when the host is listed with other keys only, of the same type or another', () => {
    expect(verdict(plain, 'build-7.internal', other)).toEqual(['changed', [2]]);
    expect(verdict(plain, 'build-8.internal', ed25519)).toEqual(['changed', [4]]);
    expect(verdict(plain, 'bastion.fleet.internal', ed25519)).toEqual(['changed', [7]]);
    expect(verdict(hashed, 'build-7.internal', other)).toEqual(['changed', [1]]);
  });

  it('says unknown for an unlisted name, a port not listed, a line whose key does not decode, and counts @cert-authority lines', () => {
    expect(verdict(plain, 'elsewhere.internal', ed25519)).toEqual(['unknown', 0]);
    expect(verdict(plain, '[build-8.internal]:2222', rsa)).toEqual(['unknown', 0]);
    expect(verdict(plain, 'mismatched.internal', ed25519)).toEqual(['unknown', 0]);
    expect(verdict(plain, 'x.ca.internal', other)).toEqual(['unknown', 1]);
    expect(verdict([], 'build-7.internal', ed25519)).toEqual(['unknown', 0]);
  });

  it('refuses a key marked @revoked even where a plain entry lists it', () => {
    expect(verdict(plain, 'retired.internal', ed25519)).toEqual(['revoked', 10]);
    expect(verdict(plain, 'retired.internal', other)).toEqual(['changed', [9]]);
  });
});
