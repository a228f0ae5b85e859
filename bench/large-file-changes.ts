// What the large-file patch benches share: code-like files, one changed line each, the apply_patch text of that change.
import { spawnSync } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A code-like file of about `bytes` bytes, every line distinct. */
export function codeFile(seed: string, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = `  const value${i} = compute(${seed}, input.field${i % 13}, ${i}); // keeps line ${i} unique`;
    lines.push(line);
    size += line.length + 1;
  }
  return `${lines.join('\n')}\n`;
}

/** `text` with its line `line` (0-based) changed. */
export function changed(text: string, line: number): string {
  const lines = text.split('\n');
  lines[line] = `${lines[line]} // changed`;
  return lines.join('\n');
}

/** One apply_patch changing line `line` of every file, with three lines of context each side. */
export function applyPatchText(files: Map<string, string>, line: number): string {
  const out = ['*** Begin Patch'];
  for (const [name, text] of files) {
    const lines = text.split('\n');
    out.push(`*** Update File: ${name}`, '@@');
    for (let k = line - 3; k < line; k++) out.push(` ${lines[k]}`);
    out.push(`-${lines[line]}`, `+${lines[line]} // changed`);
    for (let k = line + 1; k <= line + 3; k++) out.push(` ${lines[k]}`);
  }
  out.push('*** End Patch');
  return out.join('\n');
}

export function git(cwd: string, ...args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}

export function writeAll(folder: string, files: Map<string, string | Uint8Array>): void {
  for (const [name, content] of files) writeFileSync(join(folder, name), content);
}

/**
 * Throws unless every file of `files` in `folder` holds exactly its bytes; reads into one reused buffer, so checking
 * leaves no garbage behind for the next timed call to collect.
 */
export function checkAll(folder: string, files: Map<string, Uint8Array>, what: string, scratch: Buffer): void {
  for (const [name, expected] of files) {
    const descriptor = openSync(join(folder, name), 'r');
    try {
      const size = fstatSync(descriptor).size;
      const read = size <= scratch.length ? readSync(descriptor, scratch, 0, size, 0) : -1;
      if (read !== expected.length || Buffer.compare(scratch.subarray(0, read), expected) !== 0) {
        throw new Error(`${what} produced an unexpected ${name}`);
      }
    } finally {
      closeSync(descriptor);
    }
  }
}
