// search_tools catalog: index build and query latency on 10,000 generated entries, against a naive substring scorer.
// Run: npm run bench -- catalog
import { performance } from 'node:perf_hooks';
import { createToolCatalog, type CatalogEntry } from '@toolhost/catalog';

const ENTRY_COUNT = 10_000;
const ROUNDS = 5;

const SERVICES = [
  'github', 'gitlab', 'bitbucket', 'jira', 'linear', 'asana', 'trello', 'slack', 'discord', 'teams', 'zoom', 'notion',
  'confluence', 'gdrive', 'gdocs', 'gsheets', 'gcal', 'gmail', 'outlook', 'dropbox', 'box', 'airtable', 'figma', 'postgres',
  'mysql', 'sqlite', 'redis', 'mongodb', 'elasticsearch', 'bigquery', 'snowflake', 'pinecone', 'dynamodb', 'kafka', 'rabbitmq',
  'sqs', 'aws_s3', 'aws_ec2', 'aws_lambda', 'cloudwatch', 'gcp_compute', 'gcs', 'cloud_run', 'azure_vm', 'azure_blob', 'k8s',
  'helm', 'docker', 'terraform', 'cloudflare', 'sentry', 'datadog', 'pagerduty', 'prometheus', 'grafana', 'stripe', 'shopify',
  'hubspot', 'salesforce', 'zendesk', 'intercom', 'twilio', 'sendgrid', 'okta', 'vault', 'browser', 'fs', 'vercel', 'netlify',
];
const VERBS = ['create', 'get', 'list', 'update', 'delete', 'search', 'archive', 'restore', 'export', 'import', 'sync', 'share', 'move', 'copy', 'describe', 'watch'];
const OBJECTS = [
  'issue', 'pull_request', 'comment', 'branch', 'commit', 'release', 'pipeline', 'job', 'log', 'metric', 'alert', 'monitor',
  'incident', 'user', 'team', 'channel', 'message', 'thread', 'file', 'folder', 'page', 'database', 'table', 'record', 'document',
  'bucket', 'object', 'instance', 'function', 'queue', 'topic', 'secret', 'policy', 'role', 'deployment', 'pod', 'service',
  'image', 'container', 'volume', 'invoice', 'customer', 'subscription', 'payment', 'ticket', 'contact', 'deal', 'event',
  'calendar', 'dashboard', 'snapshot', 'backup', 'webhook', 'label', 'milestone', 'sprint', 'project', 'workspace',
];
const PHRASES: Record<string, string> = {
  create: 'Creates a new', get: 'Fetches one', list: 'Lists every', update: 'Updates fields of a', delete: 'Deletes a',
  search: 'Searches for', archive: 'Archives a', restore: 'Restores an archived', export: 'Exports a', import: 'Imports a',
  sync: 'Synchronises a', share: 'Shares a', move: 'Moves a', copy: 'Copies a', describe: 'Describes the settings of a', watch: 'Watches a',
};

/** A small deterministic PRNG (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function generateEntries(count: number): CatalogEntry[] {
  const next = random(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const entries: CatalogEntry[] = [];
  const seen = new Set<string>();
  while (entries.length < count) {
    const service = pick(SERVICES);
    const verb = pick(VERBS);
    const object = pick(OBJECTS);
    let name = `${service}_${verb}_${object}`;
    if (seen.has(name)) name = `${name}_v${entries.length}`;
    seen.add(name);
    const words = object.replace(/_/g, ' ');
    const other = pick(OBJECTS).replace(/_/g, ' ');
    entries.push({
      name,
      description: `${PHRASES[verb]} ${service.replace(/_/g, ' ')} ${words}, with its ${other} and owner. Useful when you need the ${words} details.`,
      inputSchema: {
        type: 'object',
        properties: {
          [`${object}_id`]: { type: 'string', description: `Id of the ${words}` },
          workspace: { type: 'string', description: `${service} workspace or project` },
          limit: { type: 'integer', description: 'Maximum results' },
        },
        required: [`${object}_id`],
        additionalProperties: false,
      },
      tags: [service.split('_')[0], words],
      handler: () => 'ok',
    });
  }
  return entries;
}

function generateQueries(entries: CatalogEntry[]): string[] {
  const next = random(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const queries: string[] = [];
  for (let i = 0; i < 40; i++) {
    const [service, verb, ...object] = pick(entries).name.split('_');
    queries.push(`${verb} a ${object.join(' ')} in ${service}`); // paraphrase
    queries.push(`${service.slice(0, 4)} ${object.join(' ').slice(0, 5)}`); // partial words
    const typo = object.join(' ');
    queries.push(`${service} ${typo.length > 4 ? typo.slice(0, 2) + typo[3] + typo[2] + typo.slice(4) : typo}`); // transposition
    queries.push(pick(entries).name); // exact name
    queries.push(`${pick(entries).name}, ${pick(entries).name}`); // several names
  }
  return queries;
}

/** The placeholder this package replaced: every word that occurs as a substring scores, a name hit twice. */
function createNaiveCatalog(entries: CatalogEntry[]) {
  const rows = entries.map((entry) => ({ entry, name: entry.name.toLowerCase(), text: `${entry.name} ${entry.description}`.toLowerCase() }));
  return {
    search(query: string, limit: number) {
      const words = query.toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
      const scored: { entry: CatalogEntry; score: number }[] = [];
      for (const row of rows) {
        let score = 0;
        for (const word of words) if (row.text.includes(word)) score += row.name.includes(word) ? 2 : 1;
        if (score > 0) scored.push({ entry: row.entry, score });
      }
      scored.sort((a, b) => b.score - a.score || (a.entry.name < b.entry.name ? -1 : 1));
      return scored.slice(0, limit);
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function timeQueries(search: (query: string, limit: number) => unknown, queries: string[]): number[] {
  for (const query of queries) search(query, 5); // warm-up
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (const query of queries) {
      const start = performance.now();
      search(query, 5);
      samples.push(performance.now() - start);
    }
  }
  return samples;
}

function timeBuild<T>(build: () => T): { value: T; ms: number } {
  const runs: number[] = [];
  let value!: T;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    value = build();
    runs.push(performance.now() - start);
  }
  return { value, ms: median(runs) };
}

export default async function catalogBench(): Promise<void> {
  const entries = generateEntries(ENTRY_COUNT);
  const queries = generateQueries(entries);
  const built = timeBuild(() => createToolCatalog(entries));
  const naiveBuilt = timeBuild(() => createNaiveCatalog(entries));
  const catalog = built.value;
  const naive = naiveBuilt.value;

  const incrementalStart = performance.now();
  const extra = generateEntries(ENTRY_COUNT + 100).slice(ENTRY_COUNT).map((entry) => ({ ...entry, name: `extra_${entry.name}` }));
  for (const entry of extra) catalog.add(entry);
  for (const entry of extra) catalog.remove(entry.name);
  const incrementalMs = (performance.now() - incrementalStart) / (extra.length * 2);

  const fast = timeQueries((query, limit) => catalog.search(query, limit), queries);
  const slow = timeQueries((query, limit) => naive.search(query, limit), queries);
  const fmt = (ms: number) => ms.toFixed(3);

  console.log(`entries: ${ENTRY_COUNT}, queries: ${queries.length} x ${ROUNDS} rounds (paraphrase, partial, typo, exact, multi-name)\n`);
  console.log('| measure | minisearch catalog | naive substring baseline | ratio (baseline / catalog) |');
  console.log('|---|---:|---:|---:|');
  console.log(`| index build, ms | ${fmt(built.ms)} | ${fmt(naiveBuilt.ms)} | ${(naiveBuilt.ms / built.ms).toFixed(2)}x |`);
  console.log(`| median query, ms | ${fmt(median(fast))} | ${fmt(median(slow))} | ${(median(slow) / median(fast)).toFixed(1)}x |`);
  console.log(`| p90 query, ms | ${fmt(percentile(fast, 90))} | ${fmt(percentile(slow, 90))} | ${(percentile(slow, 90) / percentile(fast, 90)).toFixed(1)}x |`);
  console.log(`| p99 query, ms | ${fmt(percentile(fast, 99))} | ${fmt(percentile(slow, 99))} | ${(percentile(slow, 99) / percentile(fast, 99)).toFixed(1)}x |`);
  console.log(`| add/remove one entry, ms | ${fmt(incrementalMs)} | n/a | |`);
  const target = median(fast) < 1 ? 'met' : 'NOT met';
  console.log(`\ntarget median query < 1 ms on ${ENTRY_COUNT} entries: ${target}`);
}
