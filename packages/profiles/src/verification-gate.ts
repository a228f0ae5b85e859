import { ErrorCode, errorResult, type ToolResult } from '@toolhost/core';
import { isVerificationCommand } from './verification-command.js';

/** Options of the anti-blind-editing gate. */
export interface VerificationGateOptions {
  /** Effective mutations allowed without a verification (default 4); `Infinity` turns the gate off. */
  threshold?: number;
  /** Whether a command counts as verification (default: tests, builds, lints, typechecks). */
  isVerification?: (cmd: string) => boolean;
  /** Tools whose successful calls count as mutations (default: apply_patch). */
  mutatingTools?: readonly string[];
}

/** The anti-blind-editing gate: blocks mutations after too many without a successful verification. */
export interface VerificationGate {
  /** Effective mutations since the last verification. */
  readonly mutationsSinceVerification: number;
  /**
   * A `verification_required` result when `toolName` is a mutation that must wait, else undefined; an allowed mutation
   * holds a slot until its `record` call.
   */
  check(toolName: string): ToolResult | undefined;
  /** Updates the count from a finished call. */
  record(toolName: string, args: Record<string, unknown>, result: ToolResult): void;
}

function isEffectiveMutation(result: ToolResult): boolean {
  if (!result.ok) return false;
  const diff = result.data?.diff;
  if (Array.isArray(diff)) return diff.some((entry) => !(entry as { is_empty?: boolean }).is_empty);
  return true;
}

/** Creates the gate. */
export function createVerificationGate(options: VerificationGateOptions = {}): VerificationGate {
  const threshold = options.threshold ?? 4;
  const classify = options.isVerification ?? isVerificationCommand;
  const mutating = new Set(options.mutatingTools ?? ['apply_patch']);
  const verificationSessions = new Set<number>();
  let count = 0;
  // Mutations allowed by check() whose result is not recorded yet: concurrent calls cannot slip past the threshold together.
  let inFlight = 0;
  const finished = (data: Record<string, unknown> | undefined, sessionVerifies: boolean) => {
    if (!sessionVerifies) return;
    if (typeof data?.exit_code === 'number') {
      if (data.exit_code === 0) count = 0;
      if (typeof data.session_id === 'number') verificationSessions.delete(data.session_id);
    } else if (typeof data?.session_id === 'number') verificationSessions.add(data.session_id);
  };
  return {
    get mutationsSinceVerification() {
      return count;
    },
    check(toolName) {
      if (!mutating.has(toolName)) return undefined;
      if (count + inFlight < threshold) {
        inFlight += 1;
        return undefined;
      }
      return errorResult(
        ErrorCode.VerificationRequired,
        `${count} edits were made without a verification. Run the project's tests, build, lint or typecheck with exec_command (for example \`npm test\`, \`cargo test\`, \`pytest\`) and let it exit 0 before editing again; reads and inspection commands stay allowed.`,
        { mutations_since_verification: count, threshold },
      );
    },
    record(toolName, args, result) {
      if (mutating.has(toolName)) {
        inFlight = Math.max(0, inFlight - 1);
        if (isEffectiveMutation(result)) count += 1;
        return;
      }
      if (toolName === 'exec_command' && typeof args.cmd === 'string') finished(result.data, result.ok && classify(args.cmd));
      if (toolName === 'write_stdin' && typeof args.session_id === 'number') {
        const sessionId = args.session_id;
        finished({ session_id: sessionId, ...result.data }, verificationSessions.has(sessionId));
      }
    },
  };
}
