// The cost of execute_tool spans: the span wrapper with no tracer provider registered (the default) against a bare
// call, and a fake host call with no provider against one with a recording provider. Run: npm run bench -- telemetry
import { performance } from 'node:perf_hooks';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { okResult } from '@toolhost/core';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolTelemetry } from '../packages/runtime/src/tool-telemetry.js';

/** Median time of one call, measured over batches so sub-microsecond calls are timed. */
async function perCall(batches: number, batch: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let round = 0; round < batches + 3; round++) {
    const start = performance.now();
    for (let i = 0; i < batch; i++) await fn();
    if (round >= 3) times.push((performance.now() - start) / batch);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const us = (value: number) => `${(value * 1000).toFixed(2)} µs`;

export default async function (): Promise<void> {
  const outcome = { result: okResult('done') };
  const traced = createToolTelemetry({ options: undefined, environment: 'fake', countTokens: (text) => text.length });
  const host = createFakeToolHost({ environment: { platform: 'linux', env: {} }, commands: [{ match: 'echo hi', output: 'hi\n' }] });
  const call = () => host.call('exec_command', { cmd: 'echo hi' }, { callId: 'call_1' });

  const bare = await perCall(31, 2000, () => Promise.resolve(outcome));
  const wrapped = await perCall(31, 2000, () => traced({ tool: 'exec_command', callId: 'call_1' }, () => Promise.resolve(outcome)));
  const hostNoProvider = await perCall(15, 200, call);

  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(provider);
  const hostRecording = await perCall(15, 200, async () => {
    await call();
    exporter.reset();
  });
  await provider.shutdown();
  trace.disable();
  context.disable();

  console.log('| measure | per call (median) |');
  console.log('|---|---|');
  console.log(`| bare async call | ${us(bare)} |`);
  console.log(`| span wrapper, no provider registered | ${us(wrapped)} (+${us(wrapped - bare)}) |`);
  console.log(`| fake host exec_command, no provider registered | ${us(hostNoProvider)} |`);
  console.log(
    `| fake host exec_command, recording provider (in-memory exporter) | ${us(hostRecording)} (+${us(hostRecording - hostNoProvider)}) |`,
  );
}
