import { ErrorCode, errorResult, type ToolResult } from '@toolhost/core';
import { isVerificationCommand } from './verification-command.js';

/** Options of the anti-blind-editing gate. */
export interface VerificationGateOptions {
  /** Effective mutations allowed between two completed verifications (default 4); `Infinity` turns the gate off. */
  threshold?: number;
  /** Whether a command counts as verification (default: tests, builds, lints, typechecks, syntax checks of a file). */
  isVerification?: (cmd: string) => boolean;
  /** Tools whose successful calls count as mutations (default: apply_patch). */
  mutatingTools?: readonly string[];
}

/** A verification command that completed, and how it exited. */
export interface VerificationRun {
  /** The command as it was run. */
  cmd: string;
  /** Its exit code: 0 passed, anything else failed. */
  exitCode: number;
}

/**
 * The anti-blind-editing gate: blocks mutations after too many since the last verification command completed (passing
 * or failing: the model has seen its result either way).
 */
export interface VerificationGate {
  /** Effective mutations since the last verification completed. */
  readonly mutationsSinceVerification: number;
  /** The last verification command that completed, if any. */
  readonly lastVerification: VerificationRun | undefined;
  /**
   * A `verification_required` result when `toolName` is a mutation that must wait, else undefined; an allowed mutation
   * holds a slot until its `record` call. `shellTool` is the name of the model's shell tool, used in the refusal text
   * (default `exec_command`).
   */
  check(toolName: string, shellTool?: string): ToolResult | undefined;
  /** Updates the count from a finished call. */
  record(toolName: string, args: Record<string, unknown>, result: ToolResult): void;
}

function isEffectiveMutation(result: ToolResult): boolean {
  if (!result.ok) return false;
  const diff = result.data?.diff;
  if (Array.isArray(diff)) return diff.some((entry) => !(entry as { is_empty?: boolean }).is_empty);
  return true;
}

/** A command as the refusal quotes it: on one line, at most 100 characters. */
function quoted(cmd: string): string {
  const line = cmd.replace(/\s+/g, ' ').trim();
  return `\`${line.length > 100 ? `${line.slice(0, 99)}…` : line}\``;
}

const OTHER_CHECKS = 'another test, build, lint, typecheck or syntax check';
const RESUMES = 'editing resumes as soon as one completes, passing or failing';
const READS = 'Reads and inspection commands stay allowed.';

/** The refusal text: what was last verified, and which command to run next. */
function refusalText(count: number, last: VerificationRun | undefined, running: [number, string] | undefined, shellTool: string): string {
  const edits = count === 1 ? '1 edit was made' : `${count} edits were made`;
  let lead: string;
  let action: string;
  if (last === undefined) {
    lead = `${edits} without running any check.`;
    action = `Run the project's tests, build, lint or typecheck with ${shellTool} (for example \`npm test\`, \`cargo test\`, \`pytest\`), or, where there are none, a syntax check of an edited file (\`node --check FILE\`, \`bash -n FILE\`, \`python -m py_compile FILE\`); ${RESUMES}.`;
  } else if (last.exitCode !== 0) {
    lead = `${edits} since the project's checks failed: ${quoted(last.cmd)} exited with code ${last.exitCode}.`;
    action = `Run it again with ${shellTool} to see whether the edits fixed it (or ${OTHER_CHECKS}); ${RESUMES}.`;
  } else {
    lead = `${edits} since ${quoted(last.cmd)} last passed.`;
    action = `Run it again with ${shellTool} to see whether the edits broke anything (or ${OTHER_CHECKS}); ${RESUMES}.`;
  }
  if (running) {
    const [sessionId, cmd] = running;
    action = `${quoted(cmd)} is still running in session ${sessionId}: poll it with write_stdin until it exits; editing resumes as soon as it completes, passing or failing.`;
  }
  return `${lead} ${action} ${READS}`;
}

/** Creates the gate. */
export function createVerificationGate(options: VerificationGateOptions = {}): VerificationGate {
  const threshold = options.threshold ?? 4;
  const classify = options.isVerification ?? isVerificationCommand;
  const mutating = new Set(options.mutatingTools ?? ['apply_patch']);
  // Verification commands still running, by session id: their exit, reported by a later write_stdin, completes them.
  const runningVerifications = new Map<number, string>();
  let count = 0;
  let last: VerificationRun | undefined;
  // Mutations allowed by check() whose result is not recorded yet: concurrent calls cannot slip past the threshold together.
  let inFlight = 0;
  const settle = (cmd: string, data: Record<string, unknown> | undefined) => {
    const sessionId = data?.session_id;
    if (typeof data?.exit_code === 'number') {
      count = 0;
      last = { cmd, exitCode: data.exit_code };
      if (typeof sessionId === 'number') runningVerifications.delete(sessionId);
    } else if (typeof sessionId === 'number') runningVerifications.set(sessionId, cmd);
  };
  return {
    get mutationsSinceVerification() {
      return count;
    },
    get lastVerification() {
      return last && { ...last };
    },
    check(toolName, shellTool = 'exec_command') {
      if (!mutating.has(toolName)) return undefined;
      if (count + inFlight < threshold) {
        inFlight += 1;
        return undefined;
      }
      const running = [...runningVerifications].at(-1);
      const data: Record<string, unknown> = { mutations_since_verification: count, threshold };
      if (last) data.last_verification = { cmd: last.cmd, exit_code: last.exitCode };
      return errorResult(ErrorCode.VerificationRequired, refusalText(count, last, running, shellTool), data);
    },
    record(toolName, args, result) {
      if (mutating.has(toolName)) {
        inFlight = Math.max(0, inFlight - 1);
        if (isEffectiveMutation(result)) count += 1;
        return;
      }
      if (toolName === 'exec_command' && typeof args.cmd === 'string' && result.ok && classify(args.cmd)) settle(args.cmd, result.data);
      if (toolName === 'write_stdin' && typeof args.session_id === 'number') {
        const cmd = runningVerifications.get(args.session_id);
        if (cmd === undefined) return;
        // A session that is gone without reporting an exit here (pruned, unknown) is no longer running.
        if (!result.ok && typeof result.data?.exit_code !== 'number') runningVerifications.delete(args.session_id);
        else settle(cmd, { ...result.data, session_id: args.session_id });
      }
    },
  };
}
