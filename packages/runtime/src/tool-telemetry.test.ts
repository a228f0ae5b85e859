import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolHostError, errorResult, okResult } from '@toolhost/core';
import { checkTelemetryOptions, createToolTelemetry, resultAttributes } from './tool-telemetry.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });

beforeAll(() => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
});
afterAll(async () => {
  trace.disable();
  context.disable();
  await provider.shutdown();
});
afterEach(() => exporter.reset());

const telemetry = (recordCommands?: boolean) =>
  createToolTelemetry({ options: { recordCommands }, environment: 'docker', countTokens: (text) => text.length });

describe('createToolTelemetry', () => {
  it('records a thrown caller error as an exception with its code, and throws it on', async () => {
    const error = new ToolHostError('host_closed', 'the host is closed');
    await expect(telemetry()({ tool: 'exec_command', callId: 'c1' }, () => Promise.reject(error))).rejects.toBe(error);
    const [span] = exporter.getFinishedSpans();
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes).toMatchObject({ 'error.type': 'host_closed', 'gen_ai.tool.call.id': 'c1', 'toolhost.environment': 'docker' });
    expect(span?.events.map((event) => [event.name, event.attributes?.['exception.type']])).toEqual([['exception', 'host_closed']]);
  });

  it('records the command only when allowed, and the tokens of the output before a cut', async () => {
    await telemetry(false)({ tool: 'exec_command', command: 'make' }, () =>
      Promise.resolve({ result: okResult('abc'), originalTokens: () => 99 }),
    );
    await telemetry(true)({ tool: 'exec_command', command: 'make' }, () => Promise.resolve({ result: okResult('abc') }));
    const [hidden, shown] = exporter.getFinishedSpans();
    expect(hidden?.attributes['toolhost.command']).toBeUndefined();
    expect(hidden?.attributes).toMatchObject({ 'toolhost.output_tokens': 3, 'toolhost.original_tokens': 99 });
    expect(shown?.attributes['toolhost.command']).toBe('make');
  });
});

describe('resultAttributes', () => {
  it('keeps counts and codes and drops every text', () => {
    const result = errorResult('tool_failed', 'secret text', {
      exit_code: 1,
      session_id: 4,
      spool_path: '/tmp/x',
      original_token_count: 500,
      output: 'secret',
      diff: [{ operation: 'moved', diff: 'secret' }],
    });
    expect(resultAttributes(result)).toEqual({
      'toolhost.ok': false,
      'toolhost.exit_code': 1,
      'toolhost.session_id': 4,
      'toolhost.truncated': true,
      'toolhost.original_tokens': 500,
      'toolhost.patch.files': 1,
      'toolhost.patch.moved': 1,
    });
  });
});

describe('checkTelemetryOptions', () => {
  it('accepts nothing, an empty object and a boolean recordCommands; refuses the rest', () => {
    expect(() => checkTelemetryOptions(undefined)).not.toThrow();
    expect(() => checkTelemetryOptions({ recordCommands: true })).not.toThrow();
    expect(() => checkTelemetryOptions(null)).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: 'telemetry must be an object' }),
    );
    expect(() => checkTelemetryOptions({ recordCommands: 1 })).toThrow(
      expect.objectContaining({ code: 'invalid_options', message: 'telemetry.recordCommands must be a boolean, got 1' }),
    );
  });
});
