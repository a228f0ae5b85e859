import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { ToolHostError } from '@toolhost/core';
import { checkKnownHostKey, hostKeysFor, knownHostsName, parseKnownHosts, type KnownHostKey, type KnownHostsEntry } from './known-hosts.js';
import { shellQuote } from './shell-quote.js';
import { decodePublicKey, hostKeyFileName, publicKeyFingerprint, publicKeyType } from './ssh-public-key.js';

/** How an SSH environment decides whether to trust the key a host offers. */
export interface HostKeyPolicy {
  /** The refusal to throw, or undefined when the key is trusted. */
  check(key: Uint8Array): ToolHostError | undefined;
  /** Key types the policy can trust for this host, to ask the server for first (as OpenSSH orders its offer). */
  readonly knownKeyTypes: readonly string[];
}

/** Where the policy's trust comes from. */
export interface HostKeyPolicyOptions {
  host: string;
  port: number;
  /** known_hosts files or texts; default: OpenSSH's user and global files. */
  knownHosts?: string | readonly string[];
  /** Pinned public keys or `SHA256:` fingerprints; replaces known_hosts. */
  hostKey?: string | readonly string[];
}

/** OpenSSH's default UserKnownHostsFile and GlobalKnownHostsFile lists. */
export function defaultKnownHostsFiles(): string[] {
  const user = join(homedir(), '.ssh');
  const global = process.platform === 'win32' ? join(process.env.PROGRAMDATA ?? 'C:\\ProgramData', 'ssh') : '/etc/ssh';
  return [join(user, 'known_hosts'), join(user, 'known_hosts2'), join(global, 'ssh_known_hosts'), join(global, 'ssh_known_hosts2')];
}

/** What a value that should have been a string is, for a message (bytes read without an encoding are the usual case). */
function kindOf(value: unknown): string {
  return value instanceof Uint8Array ? "bytes (give the file's path, or its text read as 'utf8')" : value === null ? 'null' : typeof value;
}

/** True when a `knownHosts` string is the text of a known_hosts file rather than a path to one. */
function isKnownHostsText(value: string): boolean {
  return /[\r\n]/.test(value) || value.trim() === '' || value.trimStart().startsWith('#') || parseKnownHosts(value, '').length > 0;
}

interface KnownHostsSources {
  entries: KnownHostsEntry[];
  /** What the messages say was checked: file paths and `knownHosts text` labels. */
  checked: string[];
  /** The files among them (where a new entry is added, an old one removed). */
  files: string[];
}

async function readDefaultKnownHosts(): Promise<KnownHostsSources> {
  const entries: KnownHostsEntry[] = [];
  const checked = defaultKnownHostsFiles();
  for (const path of checked) {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      // OpenSSH reads whichever of its files exist and can be read; the others hold no host.
      continue;
    }
    entries.push(...parseKnownHosts(text, path));
  }
  return { entries, checked, files: [] };
}

async function readGivenKnownHosts(knownHosts: string | readonly string[]): Promise<KnownHostsSources> {
  const list: readonly unknown[] = typeof knownHosts === 'string' ? [knownHosts] : knownHosts;
  const sources: KnownHostsSources = { entries: [], checked: [], files: [] };
  for (const [index, value] of list.entries()) {
    if (typeof value !== 'string')
      throw new ToolHostError(
        'invalid_options',
        `knownHosts must be a path or the text of a known_hosts file (or an array of them), got ${kindOf(value)}`,
      );
    if (isKnownHostsText(value)) {
      const label = list.length === 1 ? 'knownHosts text' : `knownHosts[${index}] text`;
      sources.checked.push(label);
      sources.entries.push(...parseKnownHosts(value, label));
      continue;
    }
    let text: string;
    try {
      text = await readFile(value, 'utf8');
    } catch (error) {
      throw new ToolHostError(
        'invalid_options',
        `knownHosts ${JSON.stringify(value)} is neither a readable file nor known_hosts text: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    sources.checked.push(value);
    sources.files.push(value);
    sources.entries.push(...parseKnownHosts(text, value));
  }
  return sources;
}

/** A pinned host key: its blob, or only its fingerprint. */
type PinnedKey = { key: Buffer; fingerprint: string } | { key: undefined; fingerprint: string };

function parsePinnedKey(value: unknown): PinnedKey {
  const invalid = (got = JSON.stringify(value)) =>
    new ToolHostError(
      'invalid_options',
      `hostKey must be a public key ("ssh-ed25519 AAAA…", as in the host's /etc/ssh/ssh_host_*_key.pub), its base64, or its "SHA256:…" fingerprint, got ${got}`,
    );
  if (typeof value !== 'string') throw invalid(kindOf(value));
  const fields = value.trim().split(/[ \t]+/);
  const fingerprint = /^SHA256:([A-Za-z0-9+/]{43})=?$/.exec(fields[0] ?? '');
  if (fingerprint && fields.length === 1) return { key: undefined, fingerprint: `SHA256:${fingerprint[1]}` };
  const [type, base64] = fields.length === 1 ? [publicKeyType(Buffer.from(fields[0]!, 'base64')), fields[0]!] : [fields[0], fields[1]];
  const key = type && base64 ? decodePublicKey(type, base64) : undefined;
  if (!key) throw invalid();
  return { key, fingerprint: publicKeyFingerprint(key) };
}

/** A word for a shell command in a message: quoted only when it has characters a shell would read. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9._:@%+=,/-]+$/.test(word) ? word : shellQuote(word);
}

/** The host as the messages name it, and the arguments of the OpenSSH commands that handle it. */
function describeHost(host: string, port: number) {
  const name = knownHostsName(host, port);
  return {
    shown: port === 22 ? host : `${host} port ${port}`,
    name,
    quoted: shellWord(name),
    keyscan: `ssh-keyscan ${port === 22 ? '' : `-p ${port} `}${shellWord(host)}`,
  };
}

function describeKey(key: Uint8Array): string {
  return `${publicKeyType(key) ?? 'unknown-type'} key ${publicKeyFingerprint(key)}`;
}

function where(listed: KnownHostKey): string {
  return `${listed.entry.source}:${listed.entry.line}`;
}

const intercepted =
  'Someone may be intercepting the connection (a man-in-the-middle attack), or the host was reinstalled or given new keys.';

/** Builds the policy of one SSH environment, reading the known_hosts files once. */
export async function createHostKeyPolicy(options: HostKeyPolicyOptions): Promise<HostKeyPolicy> {
  const { host, port } = options;
  const described = describeHost(host, port);
  const checkWithOwner = (key: Uint8Array) =>
    `check its fingerprint with the host's owner (on the host: ssh-keygen -lf /etc/ssh/ssh_host_${hostKeyFileName(publicKeyType(key) ?? '')}_key.pub)`;

  if (options.hostKey !== undefined) {
    const pins = (typeof options.hostKey === 'string' ? [options.hostKey] : [...options.hostKey]).map(parsePinnedKey);
    if (pins.length === 0) throw new ToolHostError('invalid_options', 'hostKey must name at least one key');
    return {
      knownKeyTypes: pins.flatMap((pin) => (pin.key ? [publicKeyType(pin.key)!] : [])),
      check(key) {
        const fingerprint = publicKeyFingerprint(key);
        if (pins.some((pin) => (pin.key ? pin.key.equals(key) : pin.fingerprint === fingerprint))) return undefined;
        return new ToolHostError(
          'host_key_changed',
          `The SSH host key of ${described.shown} does not match hostKey: the host offered ${describeKey(key)}, hostKey pins ${pins.map((pin) => pin.fingerprint).join(', ')}.${pins.some((pin) => pin.key) ? '' : ' (A fingerprint alone does not name a key type, so the host offered the key it prefers; to pin a key of another type, give its public key line.)'} ${intercepted} Refused. If the new key is expected, ${checkWithOwner(key)}, then pin '${fingerprint}'.`,
        );
      },
    };
  }

  const given = options.knownHosts !== undefined;
  const sources = given ? await readGivenKnownHosts(options.knownHosts!) : await readDefaultKnownHosts();
  const target = given ? sources.files[0] : '~/.ssh/known_hosts';
  const add =
    target === undefined
      ? `add the line that ${described.keyscan} prints to knownHosts`
      : `run ${described.keyscan} >> ${target.startsWith('~/') ? target : shellWord(target)}`;
  const lookup =
    target === undefined ? '' : ` (ssh-keygen -F ${described.quoted}${given ? ` -f ${shellWord(target)}` : ''} then shows the entry)`;
  const forHost = hostKeysFor(sources.entries, described.name).filter((listed) => listed.entry.marker === undefined);
  return {
    knownKeyTypes: [...new Set(forHost.map((listed) => listed.entry.keyType))],
    check(key) {
      const verdict = checkKnownHostKey(sources.entries, described.name, key);
      switch (verdict.status) {
        case 'known':
          return undefined;
        case 'revoked':
          return new ToolHostError(
            'host_key_revoked',
            `The SSH host ${described.shown} offered ${describeKey(key)}, which ${where(verdict.match)} marks @revoked. Refused. The host needs a new key; once it has one, ${checkWithOwner(key)}, then ${add}.`,
          );
        case 'changed': {
          const listed = verdict.listed.map((entry) => `${describeKey(entry.key)} (${where(entry)})`).join(', ');
          const files = [...new Set(verdict.listed.map((entry) => entry.entry.source))].filter((source) => !source.endsWith(' text'));
          const remove =
            files.length > 0
              ? files.map((file) => `ssh-keygen -R ${described.quoted} -f ${shellWord(file)}`).join('; ')
              : 'from knownHosts';
          return new ToolHostError(
            'host_key_changed',
            `The SSH host key of ${described.shown} has changed: the host offered ${describeKey(key)}, but known_hosts lists ${listed} for ${described.name}. ${intercepted} Refused. If the new key is expected, ${checkWithOwner(key)}, remove the old entry (${remove}), then ${add}.`,
          );
        }
        case 'unknown': {
          const authorities =
            verdict.certificateAuthorities > 0
              ? ' @cert-authority lines name this host, but host certificates are not supported: list the host key itself.'
              : '';
          return new ToolHostError(
            'host_key_unknown',
            `The SSH host ${described.shown} is not known: it offered ${describeKey(key)}, and no known_hosts entry names ${described.name} (checked: ${sources.checked.join(', ') || 'nothing'}).${authorities} Refused. To trust it, ${checkWithOwner(key)}, then ${add}${lookup}; or pass hostKey: '${publicKeyFingerprint(key)}'${given ? '' : ' or knownHosts'}.`,
          );
        }
      }
    },
  };
}
