import { describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import type { CatalogEntry } from 'toolhost';
import { answerResponsesCalls, toResponsesTools, toStrictJsonSchema, stripNulls, type ResponsesTool } from './index.js';

/** A listed tool's name (native tool types have none: their type names them). */
const nameOf = (tool: ResponsesTool): string => ('name' in tool ? tool.name : tool.type);

const linux = { platform: 'linux', env: {} };
const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: {
      type: 'object',
      properties: { title: { type: 'string' }, labels: { type: 'array', items: { type: 'string' } } },
      required: ['title'],
    },
    handler: (args) => `Created issue "${String(args.title)}" (labels ${'labels' in args ? 'given' : 'omitted'})`,
  },
];

describe('toResponsesTools', () => {
  for (const strict of [false, true]) {
    it(`pins the emitted tools (advanced, strict ${strict})`, async () => {
      const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux });
      const tools = toResponsesTools(host, { strict });
      for (const tool of tools) {
        await expect(JSON.stringify(tool, null, 2) + '\n').toMatchFileSnapshot(
          `./__pins__/${strict ? 'strict' : 'plain'}.${nameOf(tool)}.json`,
        );
      }
    });
  }

  it('offers apply_patch as a custom tool with the Lark grammar, or as a function when asked', () => {
    const host = createFakeToolHost({ environment: linux });
    const custom = toResponsesTools(host).find((tool) => nameOf(tool) === 'apply_patch');
    expect(custom).toMatchObject({
      type: 'custom',
      format: { type: 'grammar', syntax: 'lark', definition: expect.stringContaining('begin_patch') },
    });
    const fn = toResponsesTools(host, { freeform: 'function' }).find((tool) => nameOf(tool) === 'apply_patch');
    expect(fn).toMatchObject({
      type: 'function',
      strict: false,
      parameters: { properties: { input: { type: 'string' } }, required: ['input'] },
    });
  });

  it('emits every property required and optional ones nullable in strict mode', () => {
    const host = createFakeToolHost({ environment: linux });
    const exec = toResponsesTools(host, { strict: true }).find((tool) => nameOf(tool) === 'exec_command');
    expect(exec?.type).toBe('function');
    if (exec?.type !== 'function') return;
    const properties = exec.parameters.properties as Record<string, Record<string, unknown>>;
    expect(exec.parameters.required).toEqual(Object.keys(properties));
    expect(exec.parameters.additionalProperties).toBe(false);
    expect(properties.cmd.type).toBe('string');
    expect(properties.workdir.type).toEqual(['string', 'null']);
    expect(properties.sandbox_permissions.enum).toEqual(['use_default', 'require_escalated', null]);
    expect(properties.yield_time_ms).not.toHaveProperty('default');
  });

  it('makes nested objects and schema-less optionals strict too', () => {
    const strict = toStrictJsonSchema({
      type: 'object',
      properties: { filter: { type: 'object', properties: { tag: { type: 'string', minLength: 1 } } }, any: {} },
      required: ['filter'],
    });
    expect(strict).toEqual({
      type: 'object',
      properties: {
        filter: { type: 'object', properties: { tag: { type: ['string', 'null'] } }, required: ['tag'], additionalProperties: false },
        any: {},
      },
      required: ['filter', 'any'],
      additionalProperties: false,
    });
  });
});

describe('stripNulls', () => {
  it('drops nulls of optional non-nullable properties, recursively, and keeps the rest', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string' },
        b: { type: ['string', 'null'] },
        c: { type: 'object', properties: { d: { type: 'integer' } } },
        r: { type: 'string' },
      },
      required: ['r'],
    };
    expect(stripNulls({ a: null, b: null, c: { d: null }, r: null }, schema)).toEqual({ b: null, c: {}, r: null });
  });
});

describe('answerResponsesCalls', () => {
  it('answers function and custom tool calls in order and ignores other items', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n' }], catalog });
    const outputs = await answerResponsesCalls(
      [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        {
          type: 'function_call',
          call_id: 'call_1',
          name: 'exec_command',
          arguments: JSON.stringify({ cmd: 'echo hi', workdir: null, tty: null, justification: null }),
        },
        { type: 'custom_tool_call', call_id: 'call_2', name: 'apply_patch', input: 'not a patch' },
        { type: 'function_call', call_id: 'call_3', name: 'exec_command', arguments: '{"cmd":' },
        { type: 'function_call', call_id: 'call_4', name: 'unified_exec', arguments: '{}' },
        { type: 'message', role: 'assistant', content: [] },
      ],
      host,
    );
    expect(outputs.map((output) => [output.type, output.call_id])).toEqual([
      ['function_call_output', 'call_1'],
      ['custom_tool_call_output', 'call_2'],
      ['function_call_output', 'call_3'],
      ['function_call_output', 'call_4'],
    ]);
    expect(outputs[0].output).toMatch(/Process exited with code 0\nOriginal token count: 2\nOutput:\nhi\n$/);
    expect(host.calls[1]).toMatchObject({ name: 'apply_patch', args: 'not a patch' });
    expect(outputs[1].output).toMatch(/^Error \[/);
    expect(outputs[2].output).toBe('Error [invalid_arguments]: Invalid arguments for exec_command: arguments must be a JSON object');
    expect(outputs[3].output).toMatch(/^Error \[legacy_tool\]/);
  });

  it('strips strict-mode nulls before a discovered catalog tool is called', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    await answerResponsesCalls(
      [
        {
          type: 'function_call',
          call_id: 'c1',
          name: 'search_tools',
          arguments: '{"query":"github issue","limit":null,"detail_level":null,"max_output_tokens":null}',
        },
      ],
      host,
    );
    host.nextSegment();
    expect(toResponsesTools(host, { strict: true }).map(nameOf)).toContain('github_create_issue');
    const [output] = await answerResponsesCalls(
      [
        {
          type: 'function_call',
          call_id: 'c2',
          name: 'github_create_issue',
          arguments: '{"title":"Strict","labels":null,"max_output_tokens":null}',
        },
      ],
      host,
    );
    expect(output).toEqual({ type: 'function_call_output', call_id: 'c2', output: 'Created issue "Strict" (labels omitted)' });
  });
});
