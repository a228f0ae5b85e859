import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/**
 * Child-process source: swaps `folder` for a symlink to `target` and back as fast as it can, until killed.
 * It prints "ready" once and, on SIGTERM, prints the swap count and exits with `folder` a real directory again.
 */
const SWAPPER_SOURCE = String.raw`
const fs = require('node:fs');
const [folder, target] = process.argv.slice(1, 3);
const held = folder + '.held';
let swaps = 0;
let stop = false;
process.on('SIGTERM', () => { stop = true; });
const step = () => {
  for (let i = 0; i < 200 && !stop; i++) {
    try { fs.renameSync(folder, held); } catch { continue; }
    try { fs.symlinkSync(target, folder); swaps++; } catch {}
    try { fs.unlinkSync(folder); } catch { try { fs.rmSync(folder, { recursive: true, force: true }); } catch {} }
    for (let tries = 0; ; tries++) {
      try { fs.renameSync(held, folder); break; } catch (error) {
        if (tries > 1000) throw error;
        try { fs.rmSync(folder, { recursive: true, force: true }); } catch {}
      }
    }
  }
  if (stop) { process.stdout.write('swaps ' + swaps + '\n'); process.exit(0); }
  setImmediate(step);
};
process.stdout.write('ready\n');
step();
`;

/** A running swapper process. */
export interface SymlinkSwapper {
  readonly child: ChildProcess;
  /** Stops the loop (the folder is left a real directory) and returns how many swaps it made. */
  stop(): Promise<number>;
}

/** Starts a process that keeps replacing `folder` by a symlink to `target`; `marker` goes on its command line. */
export async function startSymlinkSwapper(folder: string, target: string, marker: string): Promise<SymlinkSwapper> {
  const child = spawn(process.execPath, ['-e', SWAPPER_SOURCE, folder, target, marker], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  const exited = once(child, 'exit');
  child.stdout!.setEncoding('utf8');
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: string) => {
      output += chunk;
      if (output.includes('ready\n')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`swapper exited early with ${code}`)));
  });
  await ready;
  return {
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      return Number(/swaps (\d+)/.exec(output)?.[1] ?? 0);
    },
  };
}
