import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerToolUses } from '@toolhost/anthropic';
import { createMcpServer } from '@toolhost/mcp';
import { answerResponsesCalls, createAgentsEditor, createAgentsShell } from '@toolhost/openai';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost, type CatalogEntry } from 'toolhost';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager();

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await provider.shutdown();
});
afterEach(() => exporter.reset());

const linux = { platform: 'linux', env: {} };
const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
const only = (): ReadableSpan => {
  const finished = spans();
  expect(finished).toHaveLength(1);
  return finished[0]!;
};
const catalogTool = (name: string, description: string): CatalogEntry => ({
  name,
  description,
  inputSchema: { type: 'object', properties: {} },
  handler: () => name,
});
const genAi = (tool: string, callId?: string) => ({
  'gen_ai.operation.name': 'execute_tool',
  'gen_ai.tool.name': tool,
  'gen_ai.tool.type': 'function',
  ...(callId === undefined ? {} : { 'gen_ai.tool.call.id': callId }),
});

describe('execute_tool spans of host.call and host.edit', () => {
  it('exec_command: named and tagged by the GenAI conventions, with the exit code and the output tokens', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n', exitCode: 3 }] });
    const result = await host.call('exec_command', { cmd: 'echo hi' }, { callId: 'call_1' });
    const span = only();
    expect(span.name).toBe('execute_tool exec_command');
    expect(span.kind).toBe(SpanKind.INTERNAL);
    expect(span.instrumentationScope.name).toBe('toolhost');
    expect(span.attributes).toMatchObject({
      ...genAi('exec_command', 'call_1'),
      'toolhost.environment': 'fake',
      'toolhost.exit_code': 3,
      'toolhost.ok': true,
    });
    expect(span.attributes['toolhost.output_tokens']).toBeGreaterThan(0);
    expect(span.attributes['toolhost.command']).toBeUndefined();
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
    expect(result.ok).toBe(true);
  });

  it('write_stdin: the session id of a running command, then an unknown session as an error span', async () => {
    const host = createFakeToolHost({
      environment: linux,
      commands: [{ match: 'cat', output: 'ready\n', stdin: [{ match: 'x', output: 'x\n' }] }],
    });
    const started = await host.call('exec_command', { cmd: 'cat', yield_time_ms: 10 });
    const sessionId = started.data?.session_id;
    expect(typeof sessionId).toBe('number');
    exporter.reset();
    await host.call('write_stdin', { session_id: sessionId, chars: 'x\n' });
    expect(only().attributes).toMatchObject({ ...genAi('write_stdin'), 'toolhost.session_id': sessionId });
    exporter.reset();
    const missing = await host.call('write_stdin', { session_id: 999, chars: '' });
    expect(missing.error?.code).toBe('unknown_session');
    const span = only();
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: 'unknown_session' });
    expect(span.attributes).toMatchObject({ 'error.type': 'unknown_session', 'toolhost.ok': false });
  });

  it('apply_patch: files and operations counted', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n', 'gone.txt': 'x\n' } });
    await host.call('exec_command', { cmd: 'true' });
    exporter.reset();
    const patch =
      '*** Begin Patch\n*** Add File: b.txt\n+two\n*** Update File: a.txt\n@@\n-one\n+uno\n*** Delete File: gone.txt\n*** End Patch\n';
    const result = await host.call('apply_patch', { input: patch }, { callId: 'call_patch' });
    expect(result.ok).toBe(true);
    expect(only().attributes).toMatchObject({
      ...genAi('apply_patch', 'call_patch'),
      'toolhost.patch.files': 3,
      'toolhost.patch.created': 1,
      'toolhost.patch.updated': 1,
      'toolhost.patch.deleted': 1,
    });
  });

  it('host.edit: an apply_patch span with the operations given and the call id', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' } });
    const result = await host.edit([{ kind: 'add', path: 'n.txt', content: 'new\n' }], { callId: 'edit_1' });
    expect(result.ok).toBe(true);
    expect(only().attributes).toMatchObject({
      ...genAi('apply_patch', 'edit_1'),
      'toolhost.patch.operations': 1,
      'toolhost.patch.files': 1,
      'toolhost.patch.created': 1,
    });
  });

  it('search_tools and code_search: result counts', async () => {
    const host = createFakeToolHost({
      environment: linux,
      profile: 'advanced',
      files: { 'src/a.ts': 'export function alpha() {}\nalpha();\n' },
      catalog: [catalogTool('weather_forecast', 'Forecast for a city.'), catalogTool('weather_now', 'Weather now.')],
    });
    await host.call('search_tools', { query: 'weather' });
    expect(only().attributes).toMatchObject({ ...genAi('search_tools'), 'toolhost.search.results': 2, 'toolhost.search.expanded': 2 });
    exporter.reset();
    const found = await host.call('code_search', { query: 'alpha' });
    expect(found.ok).toBe(true);
    expect(only().attributes).toMatchObject({
      ...genAi('code_search'),
      'toolhost.search.results': (found.data?.results as unknown[]).length,
    });
  });

  it('a cut output: truncated, with the tokens before the cut', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'long', output: 'word '.repeat(5000) }] });
    const result = await host.call('exec_command', { cmd: 'long', max_output_tokens: 50 });
    expect(result.data?.truncated).toBe(true);
    const attributes = only().attributes;
    expect(attributes['toolhost.truncated']).toBe(true);
    expect(attributes['toolhost.original_tokens']).toBeGreaterThan(attributes['toolhost.output_tokens'] as number);
  });

  it('an unknown tool and a model mistake: status ERROR with error.type', async () => {
    const host = createFakeToolHost({ environment: linux });
    await host.call('no_such_tool', {});
    expect(only()).toMatchObject({
      name: 'execute_tool no_such_tool',
      status: { code: SpanStatusCode.ERROR },
      attributes: { 'error.type': 'unknown_tool' },
    });
    exporter.reset();
    await host.call('exec_command', { cmd: 42 });
    expect(only().attributes['error.type']).toBe('invalid_arguments');
  });

  it('nests under the caller active span', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    const tracer = trace.getTracer('agent');
    await tracer.startActiveSpan('agent step', async (parent) => {
      await host.call('exec_command', { cmd: 'echo hi' });
      parent.end();
    });
    const step = spans().find((span) => span.name === 'agent step')!;
    const tool = spans().find((span) => span.name === 'execute_tool exec_command')!;
    expect(tool.spanContext().traceId).toBe(step.spanContext().traceId);
    expect(tool.parentSpanContext?.spanId).toBe(step.spanContext().spanId);
  });

  it('records the command line only when telemetry.recordCommands is set, and checks the option', async () => {
    const host = createFakeToolHost({
      environment: linux,
      telemetry: { recordCommands: true },
      commands: [{ match: 'echo hi', output: 'hi\n' }],
    });
    await host.call('exec_command', { cmd: 'echo hi' });
    expect(only().attributes['toolhost.command']).toBe('echo hi');
    expect(() => createFakeToolHost({ telemetry: { recordCommands: 'yes' as unknown as boolean } })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: 'telemetry.recordCommands must be a boolean, got "yes"' }),
    );
    expect(() => createToolHost({ workspace: tmpdir(), telemetry: [] as never })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: 'telemetry must be an object' }),
    );
  });
});

describe('execute_tool spans of the native surfaces', () => {
  it('OpenAI Responses: function_call, apply_patch_call and shell_call carry their call_id', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    await answerResponsesCalls(
      [
        { type: 'function_call', call_id: 'fc_1', name: 'exec_command', arguments: '{"cmd":"echo hi"}' },
        { type: 'shell_call', call_id: 'sh_1', action: { commands: ['echo hi'], timeout_ms: null, max_output_length: null } },
        { type: 'apply_patch_call', call_id: 'ap_1', operation: { type: 'create_file', path: 'b.txt', diff: '+two\n' } },
      ],
      host,
    );
    expect(spans().map((span) => [span.name, span.attributes['gen_ai.tool.call.id']])).toEqual([
      ['execute_tool exec_command', 'fc_1'],
      ['execute_tool exec_command', 'sh_1'],
      ['execute_tool apply_patch', 'ap_1'],
    ]);
  });

  it('OpenAI Agents SDK editor and shell', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    await createAgentsShell(host).run({ commands: ['echo hi'] });
    await createAgentsEditor(host).createFile({ type: 'create_file', path: 'c.txt', diff: '+c\n' });
    expect(spans().map((span) => [span.name, span.attributes['toolhost.ok']])).toEqual([
      ['execute_tool exec_command', true],
      ['execute_tool apply_patch', true],
    ]);
  });

  it('Anthropic text editor and a function tool carry the tool_use id', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'one\n' }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    await answerToolUses(
      [
        { type: 'tool_use', id: 'toolu_1', name: 'exec_command', input: { cmd: 'echo hi' } },
        {
          type: 'tool_use',
          id: 'toolu_2',
          name: 'str_replace_based_edit_tool',
          input: { command: 'str_replace', path: 'a.txt', old_str: 'one', new_str: 'uno' },
        },
      ],
      host,
    );
    expect(spans().map((span) => [span.name, span.attributes['gen_ai.tool.call.id'], span.attributes['toolhost.ok']])).toEqual([
      ['execute_tool exec_command', 'toolu_1', true],
      ['execute_tool apply_patch', 'toolu_2', true],
    ]);
  });

  it('MCP: the request id', async () => {
    const host = createFakeToolHost({ environment: linux, commands: [{ match: 'echo hi', output: 'hi\n' }] });
    const server = createMcpServer(host);
    const client = new Client({ name: 'test', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      await client.callTool({ name: 'exec_command', arguments: { cmd: 'echo hi' } });
    } finally {
      await client.close();
    }
    const span = only();
    expect(span.name).toBe('execute_tool exec_command');
    expect(span.attributes['gen_ai.tool.call.id']).toMatch(/^\d+$/);
  });
});

describe('execute_tool spans on a real host', () => {
  const secret = 'sk-telemetry-probe-7f3a9c';
  const folders: string[] = [];
  afterAll(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('Anthropic bash: the tool_use id on the shell it runs, the local environment', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'toolhost-telemetry-'));
    folders.push(workspace);
    const host = createToolHost({ workspace, shellProfile: 'unix_like' });
    try {
      const [answer] = await answerToolUses([{ type: 'tool_use', id: 'toolu_bash', name: 'bash', input: { command: 'echo hello' } }], host);
      expect(answer?.content).toContain('hello');
      const own = spans().filter((span) => span.attributes['gen_ai.tool.call.id'] === 'toolu_bash');
      expect(own.length).toBeGreaterThanOrEqual(2);
      expect(own.every((span) => span.attributes['toolhost.environment'] === 'local')).toBe(true);
    } finally {
      await host.close();
    }
  });

  it('never puts command output, file contents or environment values in an attribute', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'toolhost-telemetry-'));
    folders.push(workspace);
    writeFileSync(join(workspace, 'secret.txt'), `token=${secret}\n`);
    process.env.TOOLHOST_TELEMETRY_PROBE = secret;
    const host = createToolHost({ workspace, shellProfile: 'unix_like', profile: 'advanced', codeSearch: { index: false } });
    try {
      const printed = await host.call('exec_command', { cmd: 'printf "%s\\n" "$TOOLHOST_TELEMETRY_PROBE"; cat secret.txt' });
      expect(printed.output).toContain(secret);
      const patched = await host.call('apply_patch', {
        input: `*** Begin Patch\n*** Update File: secret.txt\n@@\n-token=${secret}\n+token=${secret}-2\n*** End Patch\n`,
      });
      expect(patched.ok).toBe(true);
      const found = await host.call('code_search', { query: secret });
      expect(JSON.stringify(found)).toContain(secret);
      const edited = await host.edit([{ kind: 'replace', path: 'secret.txt', oldText: `${secret}-2`, newText: secret }]);
      expect(edited.ok).toBe(true);
    } finally {
      delete process.env.TOOLHOST_TELEMETRY_PROBE;
      await host.close();
    }
    const finished = spans();
    expect(finished.map((span) => span.name)).toEqual([
      'execute_tool exec_command',
      'execute_tool apply_patch',
      'execute_tool code_search',
      'execute_tool apply_patch',
    ]);
    const values = finished.flatMap((span) => [
      span.name,
      ...Object.values(span.attributes).map(String),
      ...span.events.map((event) => JSON.stringify(event)),
    ]);
    expect(values.filter((value) => value.includes(secret))).toEqual([]);
  });
});
