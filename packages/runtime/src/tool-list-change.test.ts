import * as z from 'zod';
import { describe, expect, it } from 'vitest';
import {
  approximateTokenizer,
  createMemorySpool,
  createMemoryWorkspace,
  errorResult,
  maxOutputTokensSchema,
  okResult,
} from '@toolhost/core';
import { resolveShellProfile } from '@toolhost/profiles';
import { createToolRuntime } from './tool-runtime.js';
import { toolListChange } from './tool-list-change.js';

const tool = (name: string) => ({
  name,
  schema: z.strictObject({ max_output_tokens: maxOutputTokensSchema }),
  execute: async () => okResult(`${name} ran`),
});
const entry = (name: string, description: string) => ({ name, description, inputSchema: { type: 'object' }, handler: () => 'done' });

describe('toolListChange', () => {
  it('reads which tools a search loaded, which were callable already, and whether the list changed', () => {
    const result = okResult('…', {
      matches: [
        { name: 'issue_create', available: 'next_request' },
        { name: 'issue_search', available: 'now' },
        { name: 'issue_close', available: 'not_loaded' },
        { name: 'issue_label', available: 'next_request' },
      ],
      expanded: ['issue_create', 'issue_label'],
    });
    expect(toolListChange(result)).toEqual({
      expanded: ['issue_create', 'issue_label'],
      nextRequest: ['issue_create', 'issue_label'],
      callable: ['issue_search'],
      offered: ['issue_create', 'issue_search', 'issue_label'],
      changed: true,
    });
  });

  it('a search that loaded nothing new does not change the list, though it may name callable tools', () => {
    const result = okResult('…', { matches: [{ name: 'issue_search', available: 'now' }], expanded: [] });
    expect(toolListChange(result)).toMatchObject({ callable: ['issue_search'], offered: ['issue_search'], changed: false });
  });

  it('a failed result, one without data, or malformed data changes nothing', () => {
    const none = { expanded: [], nextRequest: [], callable: [], offered: [], changed: false };
    expect(
      toolListChange(errorResult('invalid_arguments', 'bad', { matches: [{ name: 'a', available: 'now' }], expanded: ['a'] })),
    ).toEqual(none);
    expect(toolListChange(okResult('no data'))).toEqual(none);
    expect(toolListChange(okResult('odd', { matches: 'a', expanded: [3] }))).toEqual(none);
    expect(toolListChange(okResult('odd', { matches: [null, { available: 'now' }, { name: 'b', available: 'now' }] }))).toMatchObject({
      callable: ['b'],
    });
  });

  it('reads a real search_tools answer: the tool loaded, then callable after the next segment', async () => {
    const runtime = createToolRuntime({
      profile: 'default',
      guidance: resolveShellProfile('unix_like', { platform: 'linux', env: {} }),
      workspace: createMemoryWorkspace({}),
      spool: createMemorySpool(),
      tokenizer: approximateTokenizer,
      implementations: { exec_command: tool('exec_command'), write_stdin: tool('write_stdin'), apply_patch: tool('apply_patch') },
      catalog: [entry('issue_tracker', 'Files an issue in the tracker.'), entry('weather_report', 'Tells the weather.')],
    });
    const first = toolListChange(await runtime.call('search_tools', { query: 'file an issue' }));
    expect(first).toMatchObject({ expanded: ['issue_tracker'], nextRequest: ['issue_tracker'], callable: [], changed: true });
    runtime.nextSegment();
    const second = toolListChange(await runtime.call('search_tools', { query: 'file an issue' }));
    expect(second).toMatchObject({ expanded: [], callable: ['issue_tracker'], offered: ['issue_tracker'], changed: false });
    await runtime.close();
  });
});
