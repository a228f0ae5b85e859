import { stemWord } from './search-text.js';

/**
 * Query-side synonyms for tool search: abbreviations developers type (pr, k8s, db) and verbs that name the same
 * operation in different APIs (fetch/get, remove/delete). Each key expands to the listed words or phrases.
 * Expansions are scored below the words the model actually wrote.
 */
const GROUPS: string[][] = [
  ['pr', 'pull request'],
  ['mr', 'merge request'],
  ['k8s', 'kubernetes'],
  ['kube', 'kubernetes'],
  ['kubectl', 'kubernetes'],
  ['gh', 'github'],
  ['repo', 'repository'],
  ['db', 'database'],
  ['msg', 'message'],
  ['dm', 'direct message'],
  ['pg', 'postgres'],
  ['psql', 'postgres'],
  ['mongo', 'mongodb'],
  ['env', 'environment'],
  ['config', 'configuration'],
  ['auth', 'authentication'],
  ['doc', 'document', 'documentation'],
  ['docs', 'documents', 'documentation'],
  ['dir', 'directory'],
  ['evt', 'event'],
  ['vm', 'virtual machine', 'instance'],
  ['sms', 'text message'],
  ['cert', 'certificate'],
  ['tls', 'ssl'],
  ['ssl', 'tls'],
  ['js', 'javascript'],
  ['ts', 'typescript'],
  ['py', 'python'],
  ['kv', 'key value'],
  ['regex', 'regular expression'],
  ['regexp', 'regular expression'],
  ['ci', 'continuous integration', 'workflow', 'pipeline'],
];

/** Synonym sets of interchangeable words (each one expands to the others). */
const EQUIVALENTS: string[][] = [
  ['ticket', 'issue'],
  ['email', 'mail'],
  ['delete', 'remove'],
  ['get', 'fetch', 'read', 'retrieve'],
  ['update', 'edit', 'modify', 'change'],
  ['find', 'search', 'lookup'],
  ['folder', 'directory'],
  ['restart', 'reboot'],
  ['rollback', 'revert', 'undo'],
  ['alert', 'alarm', 'monitor'],
  ['spend', 'cost', 'billing'],
  ['run', 'execute'],
  ['secret', 'credential', 'password'],
  ['latest', 'newest', 'recent'],
  ['several', 'multiple', 'batch', 'bulk'],
  ['mute', 'silence', 'snooze'],
  ['near', 'nearby', 'local'],
  ['web', 'internet'],
  ['member', 'user'],
  ['usage', 'consumption'],
  ['permission', 'access', 'restriction'],
  ['popup', 'dialog', 'modal'],
  ['selector', 'locator'],
  ['confirm', 'verify', 'assert'],
  ['comment', 'note'],
  ['fact', 'observation'],
];

/** One-way expansions (a bug is an issue; an issue is not always a bug). */
const ONE_WAY: [string, string][] = [
  ['bug', 'issue'],
  ['new', 'create'],
  ['add', 'create'],
  ['make', 'create'],
  ['show', 'list'],
  ['show', 'get'],
  ['show', 'describe'],
  ['inbox', 'email'],
  ['meeting', 'event'],
  ['send', 'post'],
  ['post', 'send'],
  ['link', 'url'],
  ['url', 'link'],
  ['crash', 'error'],
  ['exception', 'error'],
  ['now', 'current'],
  // MCP servers often fold create/update/delete into one `*_write` or `manage_*` tool, and get/list into `*_read`.
  ['create', 'write'],
  ['update', 'write'],
  ['delete', 'write'],
  ['create', 'manage'],
  ['update', 'manage'],
  ['delete', 'manage'],
  ['get', 'read'],
  ['details', 'read'],
  ['watching', 'watcher'],
  ['watch', 'watcher'],
  ['approve', 'review'],
  ['remember', 'memory'],
  ['picture', 'screenshot'],
  ['photo', 'screenshot'],
  ['kill', 'delete'],
  ['forget', 'delete'],
  ['forget', 'memory'],
  ['publish', 'create'],
  ['publish', 'post'],
  ['bill', 'invoice'],
  ['unstage', 'reset'],
  ['close', 'update'],
  ['download', 'fetch'],
  ['drive', 'directions'],
  ['drive', 'travel'],
  ['shop', 'place'],
  ['shop', 'business'],
  ['store', 'place'],
  ['modified', 'metadata'],
  ['modification', 'metadata'],
  ['rerun', 'run'],
  ['rerun', 'trigger'],
  ['call', 'request'],
  ['delete', 'clear'],
  ['spin', 'create'],
  ['spin', 'run'],
  ['timeline', 'activity'],
  ['link', 'deeplink'],
  ['link', 'relation'],
  ['relationship', 'relation'],
  ['give', 'add'],
  ['give', 'grant'],
  ['grant', 'add'],
  ['once', 'batch'],
  ['rename', 'update'],
  ['make', 'generate'],
  ['draw', 'generate'],
  ['draw', 'image'],
  ['change', 'diff'],
  ['difference', 'diff'],
  ['http', 'url'],
  ['https', 'url'],
  ['www', 'url'],
];

/**
 * Expansions for a verb that opens a request and means something else elsewhere: "open a PR" creates one, while
 * "list open PRs" does not; "file a bug" creates one, while "read the file" does not.
 */
const LEADING_VERBS: [string, string][] = [
  ['open', 'create'],
  ['file', 'create'],
  ['raise', 'create'],
  ['submit', 'create'],
  ['comment', 'add'],
];

function buildTable(): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const push = (key: string, value: string) => {
    const list = table.get(key) ?? [];
    if (!list.includes(value) && value !== key) list.push(value);
    table.set(key, list);
  };
  for (const [key, ...values] of GROUPS) for (const value of values) push(key, value);
  for (const set of EQUIVALENTS) for (const key of set) for (const value of set) push(key, value);
  for (const [key, value] of ONE_WAY) push(key, value);
  return table;
}

const TABLE = buildTable();
const TABLE_BY_STEM = new Map<string, string[]>();
for (const [key, values] of TABLE) {
  const stem = stemWord(key);
  if (stem.length < 4) continue;
  const list = TABLE_BY_STEM.get(stem) ?? [];
  for (const value of values) if (!list.includes(value)) list.push(value);
  TABLE_BY_STEM.set(stem, list);
}

const ABBREVIATIONS = new Set(GROUPS.map(([key]) => key));

const LEADING_TABLE = new Map<string, string[]>();
for (const [key, value] of LEADING_VERBS) LEADING_TABLE.set(key, [...(LEADING_TABLE.get(key) ?? []), value]);

/** What a lower-case query word expands to when it is the request's verb (its first word after any preamble). */
export function leadingVerbSynonymsOf(word: string): readonly string[] {
  return LEADING_TABLE.get(word) ?? [];
}

/** Whether a lower-case query word is an abbreviation whose expansion means exactly the same ("pr", "k8s", "db"). */
export function isAbbreviation(word: string): boolean {
  return ABBREVIATIONS.has(word);
}

/** The words and phrases a lower-case query word expands to ("tickets" and "deleting" find their base forms; stems under four letters only match exactly). */
export function synonymsOf(word: string): readonly string[] {
  const direct = TABLE.get(word);
  if (direct) return direct;
  const stem = stemWord(word);
  return stem.length >= 4 ? (TABLE_BY_STEM.get(stem) ?? []) : [];
}
