// search_tools catalog: index build and query latency (no embedder) on 10,000 generated entries, against a naive substring scorer.
// Run: npm run bench -- catalog
import { performance } from 'node:perf_hooks';
import { createToolCatalog, type CatalogEntry } from '@toolhost/catalog';
import { seededRandom } from '../packages/catalog/src/__fixtures__/seeded-random.js';

const ENTRY_COUNT = 10_000;
const ROUNDS = 5;

const SERVICES = [
  'github',
  'gitlab',
  'bitbucket',
  'jira',
  'linear',
  'asana',
  'trello',
  'slack',
  'discord',
  'teams',
  'zoom',
  'notion',
  'confluence',
  'gdrive',
  'gdocs',
  'gsheets',
  'gcal',
  'gmail',
  'outlook',
  'dropbox',
  'box',
  'airtable',
  'figma',
  'postgres',
  'mysql',
  'sqlite',
  'redis',
  'mongodb',
  'elasticsearch',
  'bigquery',
  'snowflake',
  'pinecone',
  'dynamodb',
  'kafka',
  'rabbitmq',
  'sqs',
  'aws_s3',
  'aws_ec2',
  'aws_lambda',
  'cloudwatch',
  'gcp_compute',
  'gcs',
  'cloud_run',
  'azure_vm',
  'azure_blob',
  'k8s',
  'helm',
  'docker',
  'terraform',
  'cloudflare',
  'sentry',
  'datadog',
  'pagerduty',
  'prometheus',
  'grafana',
  'stripe',
  'shopify',
  'hubspot',
  'salesforce',
  'zendesk',
  'intercom',
  'twilio',
  'sendgrid',
  'okta',
  'vault',
  'browser',
  'fs',
  'vercel',
  'netlify',
];
const VERBS = [
  'create',
  'get',
  'list',
  'update',
  'delete',
  'search',
  'archive',
  'restore',
  'export',
  'import',
  'sync',
  'share',
  'move',
  'copy',
  'describe',
  'watch',
];
const OBJECTS = [
  'issue',
  'pull_request',
  'comment',
  'branch',
  'commit',
  'release',
  'pipeline',
  'job',
  'log',
  'metric',
  'alert',
  'monitor',
  'incident',
  'user',
  'team',
  'channel',
  'message',
  'thread',
  'file',
  'folder',
  'page',
  'database',
  'table',
  'record',
  'document',
  'bucket',
  'object',
  'instance',
  'function',
  'queue',
  'topic',
  'secret',
  'policy',
  'role',
  'deployment',
  'pod',
  'service',
  'image',
  'container',
  'volume',
  'invoice',
  'customer',
  'subscription',
  'payment',
  'ticket',
  'contact',
  'deal',
  'event',
  'calendar',
  'dashboard',
  'snapshot',
  'backup',
  'webhook',
  'label',
  'milestone',
  'sprint',
  'project',
  'workspace',
];
const PHRASES: Record<string, string> = {
  create: 'Creates a new',
  get: 'Fetches one',
  list: 'Lists every',
  update: 'Updates fields of a',
  delete: 'Deletes a',
  search: 'Searches for',
  archive: 'Archives a',
  restore: 'Restores an archived',
  export: 'Exports a',
  import: 'Imports a',
  sync: 'Synchronises a',
  share: 'Shares a',
  move: 'Moves a',
  copy: 'Copies a',
  describe: 'Describes the settings of a',
  watch: 'Watches a',
};

function generateEntries(count: number): CatalogEntry[] {
  const next = seededRandom(42);
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

type QueryKind = 'paraphrase' | 'partial' | 'typo' | 'exact' | 'multi-name';

function generateQueries(entries: CatalogEntry[]): { kind: QueryKind; query: string }[] {
  const next = seededRandom(7);
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const queries: { kind: QueryKind; query: string }[] = [];
  for (let i = 0; i < 40; i++) {
    const [service, verb, ...rest] = pick(entries).name.split('_');
    const object = rest.filter((word) => !/^v\d+$/.test(word)).join(' ');
    queries.push({ kind: 'paraphrase', query: `${verb} a ${object} in ${service}` });
    queries.push({ kind: 'partial', query: `${service.slice(0, 4)} ${object.slice(0, 5)}` });
    const typo = object.length > 4 ? object.slice(0, 2) + object[3] + object[2] + object.slice(4) : `${object}x`;
    queries.push({ kind: 'typo', query: `${service} ${typo}` });
    queries.push({ kind: 'exact', query: pick(entries).name });
    queries.push({ kind: 'multi-name', query: `${pick(entries).name}, ${pick(entries).name}` });
  }
  return queries;
}

/** The placeholder this package replaced: every word that occurs as a substring scores, a name hit twice. */
function createNaiveCatalog(entries: CatalogEntry[]) {
  const rows = entries.map((entry) => ({
    entry,
    name: entry.name.toLowerCase(),
    text: `${entry.name} ${entry.description}`.toLowerCase(),
  }));
  return {
    search(query: string, limit: number) {
      const words = query
        .toLowerCase()
        .split(/[^a-z0-9]+/)
        .filter(Boolean);
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

interface QuerySamples {
  /** Wall-clock milliseconds per query. */
  wall: number[];
  /** CPU milliseconds per query (user + system of this process): less inflated by other processes on a shared machine. */
  cpu: number[];
}

function timeQueries(
  search: (query: string, limit: number) => unknown,
  queries: { kind: QueryKind; query: string }[],
): Map<QueryKind | 'all', QuerySamples> {
  for (const { query } of queries) search(query, 5); // warm-up
  const samples = new Map<QueryKind | 'all', QuerySamples>([['all', { wall: [], cpu: [] }]]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const { kind, query } of queries) {
      const cpuStart = process.cpuUsage();
      const start = performance.now();
      search(query, 5);
      const wall = performance.now() - start;
      const cpuUsed = process.cpuUsage(cpuStart);
      const cpu = (cpuUsed.user + cpuUsed.system) / 1000;
      if (!samples.has(kind)) samples.set(kind, { wall: [], cpu: [] });
      for (const bucket of [samples.get('all')!, samples.get(kind)!]) {
        bucket.wall.push(wall);
        bucket.cpu.push(cpu);
      }
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

  const extra = generateEntries(ENTRY_COUNT + 100)
    .slice(ENTRY_COUNT)
    .map((entry) => ({ ...entry, name: `extra_${entry.name}` }));
  const incrementalStart = performance.now();
  for (const entry of extra) catalog.add(entry);
  for (const entry of extra) catalog.remove(entry.name);
  const incrementalMs = (performance.now() - incrementalStart) / (extra.length * 2);

  const fast = timeQueries((query, limit) => catalog.search(query, limit), queries);
  const slow = timeQueries((query, limit) => naive.search(query, limit), queries);
  const fmt = (ms: number) => ms.toFixed(3);

  console.log(
    `entries: ${ENTRY_COUNT}, queries: ${queries.length} x ${ROUNDS} rounds (40 each: paraphrase, partial, typo, exact, multi-name)\n`,
  );
  console.log('| measure | catalog (lexical index) | naive substring baseline | ratio (baseline / catalog) |');
  console.log('|---|---:|---:|---:|');
  console.log(`| index build, ms | ${fmt(built.ms)} | ${fmt(naiveBuilt.ms)} | ${(naiveBuilt.ms / built.ms).toFixed(3)}x |`);
  const row = (label: string, value: number, baseline: number) =>
    console.log(`| ${label} | ${fmt(value)} | ${fmt(baseline)} | ${(baseline / value).toFixed(1)}x |`);
  for (const [kind, samples] of fast) {
    const baseline = slow.get(kind)!;
    const label = kind === 'all' ? 'all queries' : kind;
    row(`median query (${label}), wall ms`, median(samples.wall), median(baseline.wall));
    row(`median query (${label}), CPU ms`, median(samples.cpu), median(baseline.cpu));
  }
  const all = fast.get('all')!;
  const allBaseline = slow.get('all')!;
  row('p90 query (all), wall ms', percentile(all.wall, 90), percentile(allBaseline.wall, 90));
  console.log(`| add or remove one entry (mean of 100 adds + 100 removes on 10,000), ms | ${fmt(incrementalMs)} | n/a | |`);
  const ranked = [...fast]
    .filter(([kind]) => kind !== 'all' && kind !== 'exact' && kind !== 'multi-name')
    .flatMap(([, samples]) => samples.wall);
  const verdict = (ms: number) => (ms < 1 ? 'met' : 'NOT met');
  console.log(
    `\ntarget median query < 1 ms on ${ENTRY_COUNT} entries: all queries ${verdict(median(all.wall))} (${fmt(median(all.wall))} ms wall), ` +
      `ranked queries only ${verdict(median(ranked))} (${fmt(median(ranked))} ms wall)`,
  );
  const load = (await import('node:os')).loadavg()[0];
  console.log(`1-minute load average during the run: ${load.toFixed(2)} on ${(await import('node:os')).availableParallelism()} cores`);
}
