import { ToolHostError, type ToolResult } from '@toolhost/core';
import type { Attributes, Tracer } from '@opentelemetry/api';

/** What the application asks of toolhost's spans. */
export interface TelemetryOptions {
  /** Records exec_command's command line as `toolhost.command` (off by default: a command line can hold a secret). */
  recordCommands?: boolean;
}

/** One traced call: what its span is named and tagged with before it runs. */
export interface TracedCall {
  /** The tool name the span is named after. */
  tool: string;
  /** The provider's id of the call (OpenAI `call_id`, Anthropic `tool_use` id, MCP request id). */
  callId?: string;
  /** The command line, recorded only when the application allowed it. */
  command?: string;
  /** The number of file operations an edit was given. */
  operations?: number;
}

/** What a finished call tells its span; counted only while the span is recorded. */
export interface TracedOutcome {
  result: ToolResult;
  /** Tokens of the output before it was fitted, when it was cut. */
  originalTokens?: () => number;
}

/** Wraps calls in `execute_tool` spans when `@opentelemetry/api` is installed; runs them bare otherwise. */
export type ToolTelemetry = (call: TracedCall, run: () => Promise<TracedOutcome>) => Promise<ToolResult>;

type OpenTelemetryApi = typeof import('@opentelemetry/api');

const TRACER_NAME = 'toolhost';
const TRACER_VERSION = '0.1.0';

let loading: Promise<OpenTelemetryApi | undefined> | undefined;

// Loaded on the first call and once per process, so an application without OpenTelemetry never loads or pays for it.
function loadApi(): Promise<OpenTelemetryApi | undefined> {
  loading ??= import('@opentelemetry/api').then(
    (api) => api,
    () => undefined,
  );
  return loading;
}

/** Checks the `telemetry` option of a host. */
export function checkTelemetryOptions(telemetry: unknown): void {
  if (telemetry === undefined) return;
  if (!telemetry || typeof telemetry !== 'object' || Array.isArray(telemetry))
    throw new ToolHostError('invalid_options', 'telemetry must be an object');
  const { recordCommands } = telemetry as TelemetryOptions;
  if (recordCommands !== undefined && typeof recordCommands !== 'boolean') {
    throw new ToolHostError('invalid_options', `telemetry.recordCommands must be a boolean, got ${JSON.stringify(recordCommands)}`);
  }
}

const count = (value: unknown): number | undefined => (Array.isArray(value) ? value.length : undefined);

/** The attributes a result gives its span: counts and codes only, never output, file contents or environment values. */
export function resultAttributes(result: ToolResult): Attributes {
  const data = result.data ?? {};
  const attributes: Attributes = { 'toolhost.ok': result.ok };
  if (typeof data.exit_code === 'number') attributes['toolhost.exit_code'] = data.exit_code;
  if (typeof data.session_id === 'number') attributes['toolhost.session_id'] = data.session_id;
  if (typeof data.spool_path === 'string' || data.truncated === true) attributes['toolhost.truncated'] = true;
  if (typeof data.original_token_count === 'number') attributes['toolhost.original_tokens'] = data.original_token_count;
  if (Array.isArray(data.diff)) {
    attributes['toolhost.patch.files'] = data.diff.length;
    for (const entry of data.diff as Array<{ operation?: unknown }>) {
      if (typeof entry?.operation !== 'string') continue;
      const key = `toolhost.patch.${entry.operation}`;
      attributes[key] = (typeof attributes[key] === 'number' ? attributes[key] : 0) + 1;
    }
  }
  const matches = count(data.matches) ?? count(data.results);
  if (matches !== undefined) attributes['toolhost.search.results'] = matches;
  const expanded = count(data.expanded);
  if (expanded !== undefined) attributes['toolhost.search.expanded'] = expanded;
  return attributes;
}

/** Shared by every call of one runtime. */
export interface TelemetryParts {
  options: TelemetryOptions | undefined;
  /** Where the tools run: local, docker, ssh, memory… */
  environment: string | undefined;
  countTokens: (text: string) => number;
}

/** Creates the span wrapper of one runtime by the OpenTelemetry GenAI conventions (`execute_tool {name}`). */
export function createToolTelemetry(parts: TelemetryParts): ToolTelemetry {
  let tracer: Tracer | undefined;
  return async (call, run) => {
    const api = await loadApi();
    if (!api) return (await run()).result;
    tracer ??= api.trace.getTracer(TRACER_NAME, TRACER_VERSION);
    const attributes: Attributes = {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': call.tool,
      'gen_ai.tool.type': 'function',
    };
    if (call.callId !== undefined) attributes['gen_ai.tool.call.id'] = call.callId;
    if (parts.environment !== undefined) attributes['toolhost.environment'] = parts.environment;
    if (call.operations !== undefined) attributes['toolhost.patch.operations'] = call.operations;
    if (parts.options?.recordCommands && call.command !== undefined) attributes['toolhost.command'] = call.command;
    return tracer.startActiveSpan(`execute_tool ${call.tool}`, { kind: api.SpanKind.INTERNAL, attributes }, async (span) => {
      try {
        const outcome = await run();
        if (span.isRecording()) {
          const { result } = outcome;
          span.setAttributes(resultAttributes(result));
          span.setAttribute('toolhost.output_tokens', parts.countTokens(result.output));
          if (outcome.originalTokens && result.data?.original_token_count === undefined)
            span.setAttribute('toolhost.original_tokens', outcome.originalTokens());
          if (!result.ok && result.error) {
            span.setAttribute('error.type', result.error.code);
            span.setStatus({ code: api.SpanStatusCode.ERROR, message: result.error.code });
          }
        }
        return outcome.result;
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setAttribute('error.type', ToolHostError.is(error) ? error.code : error instanceof Error ? error.name : 'Error');
        span.setStatus({ code: api.SpanStatusCode.ERROR, message: ToolHostError.is(error) ? error.code : undefined });
        throw error;
      } finally {
        span.end();
      }
    });
  };
}
