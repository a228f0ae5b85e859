import { randomBytes } from 'node:crypto';
import { inputArchive } from './input-archive.js';
import type { ScriptOutcome } from './script-runner.js';

/** One helper script to run: POSIX sh source, its positional arguments and optional input. */
export interface ScriptStep {
  script: string;
  args: string[];
  input?: Uint8Array;
}

/** Runs helper scripts one after another in one remote process (or helper shell request), an outcome each in order. */
export type ScriptBatchRunner = (steps: readonly ScriptStep[]) => Promise<ScriptOutcome[]>;

/** Quotes one word for a POSIX shell. */
export function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The shell text running one step in a subshell of a shell that reads its program from its input: its input comes
 * from the file `source` (a shell word) or else a base64 here-document, or is /dev/null, so the step never reads the
 * program; `stderr` redirects its errors.
 */
export function stepCommand(step: ScriptStep, stderr: string, source?: string): string {
  const body = `(set -- ${step.args.map(quoteWord).join(' ')}\n${step.script}\n)`;
  if (step.input === undefined) return `${body} </dev/null ${stderr}\n`;
  if (source !== undefined) return `${body} <${source} ${stderr}\n`;
  const fence = `TOOLHOST_${randomBytes(6).toString('hex')}`;
  const input = step.input;
  const encoded = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
    .toString('base64')
    .replace(/.{1,76}/g, '$&\n');
  // The here-document starts after the line holding `<<`, so the redirection closes the last line of the command.
  return `(base64 -d | ${body}) ${stderr} <<'${fence}'\n${encoded}${fence}\n`;
}

/** The shell variable holding the folder a batch's inputs were unpacked to. */
const INPUTS_VARIABLE = 'toolhost_batch_inputs';

/**
 * A program running `steps` in order, each in its own subshell whatever the others did, each followed by
 * `<marker><index>:<exit code>` on stdout (and `<marker><index>` on stderr unless `stderr` discards it). With
 * `inputs: 'archive'`, the program's own input is {@link batchInputs} (a tar of the steps' inputs), unpacked first into
 * a temporary folder each step reads its file of; when that cannot be done, the program prints `<marker>inputs` and
 * runs no step. Otherwise inputs travel in the program as here-documents.
 */
export function batchProgram(steps: readonly ScriptStep[], marker: string, stderr = '', inputs: 'archive' | 'inline' = 'inline'): string {
  const archive = inputs === 'archive' && steps.some((step) => step.input !== undefined);
  let file = 0;
  const lines = steps.map((step, index) => {
    const source = archive && step.input !== undefined ? `"$${INPUTS_VARIABLE}/${file++}"` : undefined;
    return (
      `${stepCommand(step, stderr, source)}printf '%s%d:%d\\n' '${marker}' ${index} $?\n` +
      (stderr === '' ? `printf '\\n%s%d\\n' '${marker}' ${index} >&2\n` : '')
    );
  });
  if (!archive) return lines.join('');
  const folder = `"$${INPUTS_VARIABLE}"`;
  const unpack = `${INPUTS_VARIABLE}=$(mktemp -d 2>/dev/null) && tar -xf - -C ${folder} 2>/dev/null || { [ -z ${folder} ] || rm -rf -- ${folder}; printf '%sinputs\\n' '${marker}'; exit 0; }\n`;
  return `${unpack}${lines.join('')}rm -rf -- ${folder}\n`;
}

/** The input of a program made with `inputs: 'archive'`: the steps' inputs as one tar, in step order. */
export function batchInputs(steps: readonly ScriptStep[]): Buffer {
  return inputArchive(steps.flatMap((step) => (step.input === undefined ? [] : [step.input])));
}

/** True when a program made with `inputs: 'archive'` ran no step because it could not unpack its inputs. */
export function batchInputsUnsaved(stdout: Buffer, marker: string): boolean {
  return stdout.includes(`${marker}inputs\n`, 0, 'latin1');
}

/**
 * Splits a batch's output into one outcome a step; a step whose trailer is missing (the process ended before it
 * reported) gets exit code 255 and `lost` as its message.
 */
export function splitBatchOutput(stdout: Buffer, stderr: string, marker: string, count: number, lost: string): ScriptOutcome[] {
  const outcomes: ScriptOutcome[] = [];
  const errors = stderr.split(new RegExp(`\\n${marker}\\d+\\n`));
  let from = 0;
  for (let index = 0; index < count; index++) {
    const trailer = Buffer.from(`${marker}${index}:`, 'latin1');
    const at = stdout.indexOf(trailer, from);
    const end = at < 0 ? -1 : stdout.indexOf(0x0a, at + trailer.length);
    if (at < 0 || end < 0) {
      for (let rest = index; rest < count; rest++) outcomes.push({ exitCode: 255, stdout: Buffer.alloc(0), stderr: lost });
      break;
    }
    outcomes.push({
      exitCode: Number(stdout.subarray(at + trailer.length, end).toString('latin1')),
      stdout: stdout.subarray(from, at),
      stderr: errors[index] ?? '',
    });
    from = end + 1;
  }
  return outcomes;
}
