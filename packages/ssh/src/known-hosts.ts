import { createHmac } from 'node:crypto';
import { decodePublicKey } from './ssh-public-key.js';

/** One line of a known_hosts file that names hosts and a key. */
export interface KnownHostsEntry {
  /** `revoked` for `@revoked` lines, `cert-authority` for `@cert-authority` lines (not supported: never trusted). */
  marker: 'revoked' | 'cert-authority' | undefined;
  /** The host field: comma-separated patterns (`*`, `?`, `!`), or one hashed name `|1|salt|hash`. */
  hosts: string;
  /** The key type field (`ssh-ed25519`, `ecdsa-sha2-nistp256`, `ssh-rsa`, …). */
  keyType: string;
  /** The key field, base64. */
  keyBase64: string;
  /** The file path or label the line came from, and its 1-based line number. */
  source: string;
  line: number;
}

/** The known_hosts entries of a file's text; comments, blank lines and malformed lines are skipped as OpenSSH skips them. */
export function parseKnownHosts(text: string, source: string): KnownHostsEntry[] {
  const entries: KnownHostsEntry[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const fields = lines[index]!.replace(/\r$/, '')
      .trim()
      .split(/[ \t]+/);
    if (fields[0] === '' || fields[0]!.startsWith('#')) continue;
    let marker: KnownHostsEntry['marker'];
    if (fields[0]!.startsWith('@')) {
      if (fields[0] === '@revoked') marker = 'revoked';
      else if (fields[0] === '@cert-authority') marker = 'cert-authority';
      else continue;
      fields.shift();
    }
    const [hosts, keyType, keyBase64] = fields;
    if (!hosts || !keyType || !keyBase64 || keyBase64.startsWith('#') || hosts.startsWith('@')) continue;
    entries.push({ marker, hosts, keyType, keyBase64, source, line: index + 1 });
  }
  return entries;
}

/** The name OpenSSH looks a host up by: lower case, and `[host]:port` when the port is not 22. */
export function knownHostsName(host: string, port: number): string {
  const name = host.toLowerCase();
  return port === 22 ? name : `[${name}]:${port}`;
}

/** OpenSSH's wildcard match: `*` any run of characters, `?` any one character. */
function matchesPattern(name: string, pattern: string): boolean {
  let n = 0;
  let p = 0;
  let starAt = -1;
  let starName = 0;
  while (n < name.length) {
    if (p < pattern.length && (pattern[p] === '?' || pattern[p] === name[n])) {
      n++;
      p++;
    } else if (p < pattern.length && pattern[p] === '*') {
      starAt = p++;
      starName = n;
    } else if (starAt >= 0) {
      p = starAt + 1;
      n = ++starName;
    } else {
      return false;
    }
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

function matchesHashed(name: string, hosts: string): boolean {
  const parts = hosts.split('|');
  if (parts.length !== 4 || parts[1] !== '1' || !parts[2] || !parts[3]) return false;
  const salt = Buffer.from(parts[2], 'base64');
  return createHmac('sha1', salt).update(name).digest().equals(Buffer.from(parts[3], 'base64'));
}

/** Whether an entry's host field names `name` (from {@link knownHostsName}); a matching `!pattern` excludes it. */
export function entryNamesHost(entry: Pick<KnownHostsEntry, 'hosts'>, name: string): boolean {
  if (entry.hosts.startsWith('|')) return matchesHashed(name, entry.hosts);
  let positive = false;
  for (const raw of entry.hosts.toLowerCase().split(',')) {
    const negated = raw.startsWith('!');
    const pattern = negated ? raw.slice(1) : raw;
    if (pattern === '' || !matchesPattern(name, pattern)) continue;
    if (negated) return false;
    positive = true;
  }
  return positive;
}

/** A known_hosts entry for the host, its key decoded. */
export interface KnownHostKey {
  entry: KnownHostsEntry;
  key: Buffer;
}

/** What the known_hosts entries say of a host's key. */
export type KnownHostsVerdict =
  | { status: 'known'; match: KnownHostKey }
  | { status: 'revoked'; match: KnownHostKey }
  | { status: 'changed'; listed: KnownHostKey[] }
  | { status: 'unknown'; certificateAuthorities: number };

/** The entries that name the host and hold a valid key; entries whose key does not decode are skipped, as OpenSSH skips them. */
export function hostKeysFor(entries: readonly KnownHostsEntry[], name: string): KnownHostKey[] {
  const found: KnownHostKey[] = [];
  for (const entry of entries) {
    if (!entryNamesHost(entry, name)) continue;
    const key = decodePublicKey(entry.keyType, entry.keyBase64);
    if (key) found.push({ entry, key });
  }
  return found;
}

/**
 * Checks a host's key as OpenSSH does: revoked when a `@revoked` entry for the host holds it, known when a plain entry
 * does, changed when plain entries for the host hold only other keys (of any type), unknown when there are none.
 */
export function checkKnownHostKey(entries: readonly KnownHostsEntry[], name: string, key: Uint8Array): KnownHostsVerdict {
  const forHost = hostKeysFor(entries, name);
  const revoked = forHost.find((candidate) => candidate.entry.marker === 'revoked' && candidate.key.equals(key));
  if (revoked) return { status: 'revoked', match: revoked };
  const plain = forHost.filter((candidate) => candidate.entry.marker === undefined);
  const known = plain.find((candidate) => candidate.key.equals(key));
  if (known) return { status: 'known', match: known };
  if (plain.length > 0) return { status: 'changed', listed: plain };
  return { status: 'unknown', certificateAuthorities: forHost.filter((candidate) => candidate.entry.marker === 'cert-authority').length };
}
