import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeWorkspace } from '@toolhost/core/node';
import type { ResultType } from './code-search-schema.js';
import { createSyntaxParser, type SyntaxParser } from './grammar-loader.js';
import { createLiteralMatcher } from './literal-matcher.js';
import { createParseCache } from './parse-cache.js';
import {
  CLAIMED_BY_SCAN,
  CLAIMED_BY_WORKER,
  claimSlot,
  createAssistAnswers,
  createClaimSlots,
  scanAssistOver,
  type ScanAssist,
} from './scan-assist.js';
import { assistScan } from './scan-assist-worker.js';
import { searchFiles, type SearchOutcome } from './search-workspace.js';
import { startSymbolIndex, type ScanSupport } from './symbol-index.js';
import { createCodeSearchTool } from './code-search-tool.js';
import { approximateTokenizer, createMemorySpool } from '@toolhost/core';

/** Files where `Widget` is a definition, a usage, text in strings and comments, in a binary, a file over 2 MB and a language without a grammar. */
const FILES: Record<string, string> = {
  'a-widget.ts': 'export class Widget {}\nconst w = new Widget(); // Widget\n',
  'b-use.ts': 'import { Widget } from "./a-widget";\nlet x: Widget;\nconsole.log("Widget");\n',
  'c-notes.md': 'The Widget is documented here. Widget Widget.\n',
  'd-model.py': 'class Widget:\n    pass\n\nw = Widget()\n# Widget\n',
  'e-blob.bin': 'Widget\u0000\u0000binary Widget\n',
  'f-big.ts': `${'// filler line\n'.repeat(150_000)}const Widget = 1;\n`,
  'g-main.rb': 'class Widget\nend\nWidget.new\n',
  'h-none.ts': 'export const unrelated = 1;\n',
  'i-lib.rs': 'pub struct Widget;\nfn make() -> Widget { Widget }\n// Widget\n',
  'j-more.go': 'package main\n\ntype Widget struct{}\n\nfunc use(w Widget) string { return "Widget" }\n',
  'k-more.ts': 'function build(widget: Widget): Widget { return widget; }\nexport type Widget = { id: number };\n',
  'l-tail.md': 'last Widget\n',
  'm-big-other.txt': `${'nothing to see here\n'.repeat(120_000)}`,
  // Only where no declaration name can be: parsed for usages, never for definitions alone.
  'n-calls.ts': 'const made = new Widget();\nconst again = made.Widget;\n',
};
/** Files that do not hold the query: a prefilter that knows (ripgrep) never names them. */
const WITHOUT_QUERY = new Set(['h-none.ts', 'm-big-other.txt']);
const PATHS = Object.keys(FILES).sort();

const root = mkdtempSync(join(tmpdir(), 'scan-assist-'));
for (const [path, content] of Object.entries(FILES)) writeFileSync(join(root, path), content);
afterAll(() => rmSync(root, { recursive: true, force: true }));

const workspace = createNodeWorkspace(root);
const parser = createSyntaxParser();
const PREFILTERS: Array<[prefiltered: boolean, exact: boolean]> = [
  [false, false],
  [false, true],
  [true, true],
];
const TYPE_SETS: ResultType[][] = [['definition'], ['usage'], ['text'], ['definition', 'usage'], ['definition', 'usage', 'text', 'path']];

function comparable(outcome: SearchOutcome) {
  return { results: outcome.results, truncated: outcome.truncated, hints: outcome.hints };
}

/**
 * A ScanAssist run on this thread. `scanShare`: the files the scan holds from the start, the worker holding the others;
 * without it, both claim files as they go, the worker's parses taking `delayTurns` turns of the event loop (the scan reads
 * ahead while it waits).
 */
function inThreadAssist(
  resultTypes: ResultType[],
  maxResults: number,
  {
    scanShare,
    delayTurns = 0,
    workerParser = parser,
    answersAsMessages = false,
  }: { scanShare?: (index: number) => boolean; delayTurns?: number; workerParser?: SyntaxParser; answersAsMessages?: boolean } = {},
) {
  const slow: SyntaxParser = {
    failures: workerParser.failures,
    parse: async (grammar, text) => {
      for (let turn = 0; turn < delayTurns; turn++) await new Promise((resolve) => setImmediate(resolve));
      return workerParser.parse(grammar, text);
    },
    dispose: () => undefined,
  };
  return (paths: readonly string[], sizeFirst: boolean): ScanAssist => {
    const slots = createClaimSlots(paths.length)!;
    if (scanShare)
      for (let index = 0; index < paths.length; index++) claimSlot(slots, index, scanShare(index) ? CLAIMED_BY_SCAN : CLAIMED_BY_WORKER);
    const answers = createAssistAnswers();
    // As over the worker's messages: a failed assist answers nothing more, and the scan reads those files itself.
    // answersAsMessages: each answer comes on a later turn of the event loop, as a worker thread's message does.
    const deliver: typeof answers.deliver = answersAsMessages ? (file) => void setImmediate(() => answers.deliver(file)) : answers.deliver;
    const finish = answersAsMessages ? () => void setImmediate(answers.finish) : answers.finish;
    void assistScan(root, slow, { query: 'Widget', paths, resultTypes, maxResults, sizeFirst, slots }, deliver).then(finish, finish);
    return scanAssistOver(slots, paths.length, answers);
  };
}

/** Which files the scan holds from the start, as bits of `mask` (the worker takes the rest). */
const byMask = (mask: number) => (index: number) => (mask & (1 << index)) !== 0;

describe('a scan shared with the index worker', () => {
  it('answers exactly as the scan alone, whichever files each thread reads, for every kind, max_results and prefilter', async () => {
    let compared = 0;
    for (const types of TYPE_SETS) {
      // 2: the definitions are full (not yet past max_results) when the Ruby file comes, which then only counts.
      for (const maxResults of [1, 2, 50]) {
        // Every meeting point for the small max_results, every third one for the large.
        const step = maxResults === 50 ? 3 : 1;
        // No prefilter (with and without the index's exact flag, as the tool passes it), and ripgrep's candidates.
        for (const [prefiltered, exact] of PREFILTERS) {
          const request = {
            matcher: createLiteralMatcher('Widget'),
            files: PATHS,
            resultTypes: new Set(types),
            maxResults,
            candidates: prefiltered ? new Set(PATHS.filter((path) => !WITHOUT_QUERY.has(path))) : undefined,
            candidatesExact: exact,
          };
          const alone = await searchFiles(request, { workspace, parser, cache: createParseCache() });
          const files = request.candidates ? PATHS.filter((path) => request.candidates!.has(path)).length : PATHS.length;
          const shares: Array<[string, Parameters<typeof inThreadAssist>[2]]> = [
            // Fixed shares: a front part for the scan, the rest the worker's, at every meeting point (every third for max 50).
            ...Array.from({ length: Math.floor(files / step) + 1 }, (_, part): [string, Parameters<typeof inThreadAssist>[2]] => [
              `scan holds the first ${part * step}`,
              { scanShare: (index) => index < part * step },
            ]),
            // Shares that interleave: every other file, every third, and fixed patterns of bits.
            ['alternating', { scanShare: byMask(0x5555) }],
            ['worker alternating', { scanShare: byMask(0x2aaa) }],
            ['every third', { scanShare: byMask(0x1249) }],
            ['pattern a', { scanShare: byMask(0x1a6b) }],
            ['pattern b', { scanShare: byMask(0x2594) }],
            // Claimed as the two go: a worker as fast as the scan, and one whose parses take a few turns (the scan reads ahead).
            ['as they go', {}],
            ['slow worker', { delayTurns: 4 }],
            // Answers that come on later turns of the event loop, as a worker thread's messages do.
            ['answers as messages', { delayTurns: 1, answersAsMessages: true }],
          ];
          for (const [label, share] of shares) {
            const shared = await searchFiles(request, {
              workspace,
              parser,
              cache: createParseCache(),
              assist: inThreadAssist(types, maxResults, share),
            });
            expect(comparable(shared), `${types.join('+')} max ${maxResults} prefiltered ${prefiltered} exact ${exact} ${label}`).toEqual(
              comparable(alone),
            );
            compared++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(TYPE_SETS.length * PREFILTERS.length * 3 * 7);
    // The cases hold what they claim to: a definition, a usage, text, both hints and a truncated answer.
    const all = await searchFiles(
      {
        matcher: createLiteralMatcher('Widget'),
        files: PATHS,
        resultTypes: new Set(['definition', 'usage', 'text'] as const),
        maxResults: 50,
      },
      { workspace, parser, cache: createParseCache() },
    );
    expect(new Set(all.results.map((hit) => hit.result_type))).toEqual(new Set(['definition', 'usage', 'text']));
    expect(all.hints.join('\n')).toMatch(/ruby \(1 file\)/);
    expect(all.hints.join('\n')).toMatch(/1 matching file is over 2 MB/);
  });

  it('reads a file itself when the worker failed on it', async () => {
    // The worker's parser throws on the Rust file: it gives no answer for it, and the search parses it here.
    const failing: SyntaxParser = {
      failures: new Map(),
      parse: (grammar, text) => (grammar === 'rust' ? Promise.reject(new Error('wasm trap')) : parser.parse(grammar, text)),
      dispose: () => undefined,
    };
    const types: ResultType[] = ['definition', 'usage', 'text'];
    const request = { matcher: createLiteralMatcher('Widget'), files: PATHS, resultTypes: new Set(types), maxResults: 50 };
    const alone = await searchFiles(request, { workspace, parser, cache: createParseCache() });
    const shared = await searchFiles(request, {
      workspace,
      parser,
      cache: createParseCache(),
      assist: inThreadAssist(types, 50, { workerParser: failing, scanShare: () => false }),
    });
    expect(comparable(shared)).toEqual(comparable(alone));
    expect(alone.results.some((hit) => hit.path === 'i-lib.rs' && hit.result_type === 'definition')).toBe(true);
  });

  it('takes files in the worker thread while the index builds, and the answer is the scan alone', async () => {
    const symbols = startSymbolIndex(root, { cacheDir: false, watch: false });
    // Held from the worker's first file on: the index stays unbuilt while the search runs.
    const resume = symbols.pauseBuild();
    try {
      const types: ResultType[] = ['definition', 'usage', 'text'];
      const request = { matcher: createLiteralMatcher('Widget'), files: PATHS, resultTypes: new Set(types), maxResults: 50 };
      const alone = await searchFiles(request, { workspace, parser, cache: createParseCache() });
      let assist: ScanAssist | undefined;
      // The scan's first read waits until the worker has taken the next file, so the worker's share is never empty.
      const waiting = {
        ...workspace,
        readFile: async (path: string) => {
          const deadline = Date.now() + 10_000;
          while (path === PATHS[0] && assist && !assist.taken(1) && Date.now() < deadline)
            await new Promise((resolve) => setImmediate(resolve));
          return workspace.readFile(path);
        },
      };
      const shared = await searchFiles(request, {
        workspace: waiting,
        parser,
        cache: createParseCache(),
        assist: (paths, sizeFirst) => (assist = symbols.assist({ query: 'Widget', paths, resultTypes: types, maxResults: 50, sizeFirst })),
      });
      expect(assist).toBeDefined();
      expect(assist!.taken(1)).toBe(true);
      expect(shared.stats.assisted).toBeGreaterThan(0);
      expect(comparable(shared)).toEqual(comparable(alone));
      // Once the scan lets it go, the build ends, and a built index no longer shares scans.
      resume();
      expect(await symbols.ready).toBe(true);
      expect(symbols.assist({ query: 'Widget', paths: PATHS, resultTypes: types, maxResults: 50, sizeFirst: false })).toBeUndefined();
    } finally {
      resume();
      await symbols.close();
    }
  });

  it('gives the tool the same output with an index still building as with no index, with ripgrep and with the pure scan', async () => {
    const context = {
      workspace,
      tokenizer: approximateTokenizer,
      spool: createMemorySpool(),
      maxOutputTokens: 10_000,
      shell: 'unix_like' as const,
    };
    const queries = [
      { query: 'Widget', result_types: ['definition'] },
      { query: 'Widget', result_types: ['usage'], max_results: 2 },
      { query: 'Widget', result_types: ['definition', 'usage'] },
      { query: 'Widget' },
      { query: 'widget', result_types: ['text'], max_results: 3 },
    ];
    // The baseline reads every file on this thread; ripgrep's candidates are read as it names them (ahead of the search).
    const alone = createCodeSearchTool({ index: false, prefilter: 'scan' });
    const ripgrepAlone = createCodeSearchTool({ index: false, prefilter: 'ripgrep' });
    for (const prefilter of ['ripgrep', 'scan'] as const) {
      const building = createCodeSearchTool({ index: { cacheDir: false, watch: false }, prefilter });
      building.prepare(workspace);
      // Held from the worker's first file on, so every search below runs while the index builds.
      const resume = (building.symbolIndex as unknown as ScanSupport).pauseBuild();
      try {
        for (const args of queries) {
          const signal = new AbortController().signal;
          const expected = await alone.execute(alone.schema.parse(args), { ...context, signal } as never);
          const actual = await building.execute(building.schema.parse(args), { ...context, signal } as never);
          expect(actual.output, `${prefilter} ${JSON.stringify(args)}`).toBe(expected.output);
          const fromRipgrep = await ripgrepAlone.execute(ripgrepAlone.schema.parse(args), { ...context, signal } as never);
          expect(fromRipgrep.output, `ripgrep alone ${JSON.stringify(args)}`).toBe(expected.output);
        }
        expect(
          await Promise.race([
            building.symbolIndex!.ready.then(() => 'built'),
            new Promise((resolve) => setImmediate(() => resolve('building'))),
          ]),
        ).toBe('building');
      } finally {
        resume();
        await building.close();
      }
    }
    await alone.close();
    await ripgrepAlone.close();
  });

  it('starts the index worker after a search asked as the tool starts, and by itself when none is', async () => {
    const context = {
      workspace,
      tokenizer: approximateTokenizer,
      spool: createMemorySpool(),
      maxOutputTokens: 10_000,
      shell: 'unix_like' as const,
    };
    const tool = createCodeSearchTool({ index: { cacheDir: false, watch: false }, prefilter: 'scan' });
    const runningDuringReads: boolean[] = [];
    const watched = {
      ...workspace,
      readFile: async (path: string) => {
        // A few turns of the event loop per read, so a worker that was going to start would have by now.
        for (let turn = 0; turn < 3; turn++) await new Promise((resolve) => setImmediate(resolve));
        runningDuringReads.push(tool.symbolIndex!.running);
        return workspace.readFile(path);
      },
    };
    try {
      tool.prepare(workspace);
      const result = await tool.execute(tool.schema.parse({ query: 'Widget', result_types: ['definition'] }), {
        ...context,
        workspace: watched,
        signal: new AbortController().signal,
      } as never);
      expect(result.ok).toBe(true);
      expect(runningDuringReads.length).toBeGreaterThan(3);
      expect(runningDuringReads.every((running) => !running)).toBe(true);
      // Once the search is over, the worker starts and builds.
      expect(await tool.symbolIndex!.ready).toBe(true);
    } finally {
      await tool.close();
    }
    const idle = createCodeSearchTool({ index: { cacheDir: false, watch: false } });
    try {
      idle.prepare(workspace);
      expect(await idle.symbolIndex!.ready).toBe(true);
    } finally {
      await idle.close();
    }
    // Searches that start later never hold the worker back: it waits only for those running when it was due to start.
    const busy = createCodeSearchTool({ index: { cacheDir: false, watch: false }, prefilter: 'scan' });
    let releaseLater: () => void = () => {};
    const later = new Promise<void>((resolve) => (releaseLater = resolve));
    const held = { ...workspace, readFile: async (path: string) => (await later, workspace.readFile(path)) };
    try {
      busy.prepare(workspace);
      const first = busy.execute(busy.schema.parse({ query: 'Widget', result_types: ['usage'] }), {
        ...context,
        signal: new AbortController().signal,
      } as never);
      // The worker was due to start on this turn: the first search was running, so it waits for that one alone.
      await new Promise((resolve) => setImmediate(resolve));
      const second = busy.execute(busy.schema.parse({ query: 'Widget', result_types: ['text'] }), {
        ...context,
        workspace: held,
        signal: new AbortController().signal,
      } as never);
      expect((await first).ok).toBe(true);
      // The second search still waits for its reads (and holds the build back), yet the worker starts.
      const deadline = Date.now() + 10_000;
      while (!busy.symbolIndex!.running && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(busy.symbolIndex!.running).toBe(true);
      releaseLater();
      expect(await busy.symbolIndex!.ready).toBe(true);
      expect((await second).ok).toBe(true);
    } finally {
      releaseLater();
      await busy.close();
    }
    // Closed before its worker started: it never starts.
    const closedEarly = createCodeSearchTool({ index: { cacheDir: false, watch: false } });
    closedEarly.prepare(workspace);
    await closedEarly.close();
    expect(closedEarly.symbolIndex!.running).toBe(false);
    expect(await closedEarly.symbolIndex!.ready).toBe(false);
  });
});
