// A tool loop's OpenTelemetry spans printed to the console. The "model" is a scripted list of Responses API calls so
// the example runs without a network or an API key; in an application, register your own provider and exporter.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, ConsoleSpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { answerResponsesCalls } from '@toolhost/openai';
import { createToolHost } from 'toolhost';

/** What the scripted model asks for, one turn after another. */
const turns = [
  [{ type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: JSON.stringify({ cmd: 'cat greeting.txt' }) }],
  [
    {
      type: 'function_call',
      call_id: 'call_2',
      name: 'apply_patch',
      arguments: JSON.stringify({
        input: '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello world\n+hello tracing\n*** End Patch',
      }),
    },
  ],
  [
    {
      type: 'shell_call',
      call_id: 'call_3',
      action: { commands: ['cat greeting.txt', 'exit 3'], timeout_ms: null, max_output_length: null },
    },
  ],
];

/** Runs the tool loop under an `agent turn` span per turn; each tool call's `execute_tool` span nests under it. */
export async function main(): Promise<void> {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new ConsoleSpanExporter())] });
  trace.setGlobalTracerProvider(provider);
  const workspace = mkdtempSync(join(tmpdir(), 'toolhost-tracing-'));
  writeFileSync(join(workspace, 'greeting.txt'), 'hello world\n');
  const host = createToolHost({ workspace, shellProfile: 'unix_like' });
  const tracer = trace.getTracer('tracing-example');
  try {
    for (const [index, items] of turns.entries()) {
      await tracer.startActiveSpan(`agent turn ${index + 1}`, async (span) => {
        await answerResponsesCalls(items, host);
        span.end();
      });
    }
  } finally {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
    await provider.shutdown();
    trace.disable();
    context.disable();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
