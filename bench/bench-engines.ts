// The engines the environment benches run in: the conformance suite's own (test/environments/engines.ts), a fresh
// container or SSH folder for each bench, removed afterwards.
import type { Environment } from '@toolhost/core';
import { ENGINE_SETUP, ENGINES, type Engine, type PreparedEngine } from '../test/environments/engines.js';

/** A prepared engine and one environment on it. */
export interface BenchEngine {
  environment: Environment;
  prepared: PreparedEngine;
  /** Closes the environment and removes what preparing the engine made. */
  remove(): Promise<void>;
}

/** Prepares `name` for a bench; a string says why it could not (the engine is not up), for a SKIPPED line. */
export async function startBenchEngine(name: Engine['name']): Promise<BenchEngine | string> {
  const engine = ENGINES.find((candidate) => candidate.name === name)!;
  const unavailable = await engine.unavailable();
  if (unavailable !== undefined) return `${unavailable}; run ${ENGINE_SETUP}`;
  const prepared = await engine.prepare();
  const environment = await prepared.environment().catch(async (error: unknown) => {
    await prepared.cleanup();
    throw error;
  });
  return {
    environment,
    prepared,
    async remove() {
      await environment.close();
      await prepared.cleanup();
    },
  };
}
