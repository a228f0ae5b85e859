import { SerialQueue } from '@toolhost/core/serial-queue';
import { errorResult, okResult, type ToolHost, type ToolResult } from 'toolhost';

/** Options of Anthropic's bash tool. */
export interface BashOptions {
  /** Time one command may run before the shell is killed (default 120,000 ms); the next command starts a new shell. */
  timeoutMs?: number;
  /** Token budget of one command's output (default 10,000, as every tool). */
  maxOutputTokens?: number;
  /** The `tool_use` id of the call, for the trace spans of what it runs (set per call by answerToolUses). */
  callId?: string;
}

/** Default time one bash command may run. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;

type BashHost = Pick<ToolHost, 'call' | 'budget'> & Partial<Pick<ToolHost, 'recordCommand'>>;

/** The shell a host's bash tool talks to: one long-lived exec_command session. */
interface BashState {
  sessionId?: number;
  /** Commands run one at a time, in order. */
  queue: SerialQueue;
}

const states = new WeakMap<object, BashState>();

/** Starts bash when there is one (else sh) reading commands from its input, no startup files. */
const START_SHELL = 'if command -v bash >/dev/null 2>&1; then exec bash --noprofile --norc 2>&1; else exec sh 2>&1; fi';

const POLL_MS = 250;

function outputText(output: string): string {
  const index = output.indexOf('\nOutput:\n');
  return index < 0 ? '' : output.slice(index + '\nOutput:\n'.length);
}

function randomTag(): string {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

async function stop(host: BashHost, state: BashState): Promise<void> {
  const sessionId = state.sessionId;
  state.sessionId = undefined;
  if (sessionId === undefined) return;
  // An already-cancelled poll kills the session's whole process tree.
  await host.call('write_stdin', { session_id: sessionId, chars: '' }, { signal: AbortSignal.abort() });
}

async function start(host: BashHost, state: BashState, callId: string | undefined): Promise<ToolResult | undefined> {
  const started = await host.call('exec_command', { cmd: START_SHELL, yield_time_ms: POLL_MS }, { callId });
  if (!started.ok) return started;
  if (started.data?.session_id === undefined || started.data.exit_code !== undefined) {
    return errorResult('spawn_failed', `The shell could not start: ${outputText(started.output) || 'it exited at once'}`);
  }
  state.sessionId = started.data.session_id;
  return undefined;
}

async function runCommand(host: BashHost, state: BashState, command: string, options: BashOptions): Promise<ToolResult> {
  if (state.sessionId === undefined) {
    const failed = await start(host, state, options.callId);
    if (failed) return failed;
  }
  const sessionId = state.sessionId as number;
  const tag = `__TOOLHOST_BASH_${randomTag()}__`;
  const sentinel = new RegExp(`\\n${tag}(\\d+)__\\n`);
  // The command runs in the shell itself (cd and variables persist) with no input of its own, then prints the sentinel.
  const script = `{ ${command}\n} < /dev/null\nprintf '\\n%s%s__\\n' '${tag}' "$?"\n`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let text = '';
  try {
    let chars = script;
    for (;;) {
      const polled = await host.call(
        'write_stdin',
        { session_id: sessionId, chars, yield_time_ms: POLL_MS, max_output_tokens: 50_000 },
        { signal: controller.signal, callId: options.callId },
      );
      chars = '';
      if (!polled.ok) {
        state.sessionId = undefined;
        return errorResult(
          polled.error?.code ?? 'session_exited',
          `${text}${text && !text.endsWith('\n') ? '\n' : ''}The shell is gone (${polled.output}); the next command starts a new one, so the working folder and variables are reset.`,
        );
      }
      text += outputText(polled.output);
      const done = sentinel.exec(text);
      if (done) {
        const body = text.slice(0, done.index);
        const exitCode = Number(done[1]);
        // A test, build or lint run in this shell counts as verification for the anti-blind-editing gate.
        host.recordCommand?.(command, exitCode);
        const shown = exitCode === 0 ? body : `${body}${body && !body.endsWith('\n') ? '\n' : ''}[exit code ${exitCode}]`;
        const budgeted = await host.budget('bash', shown, options.maxOutputTokens);
        return okResult(budgeted.output);
      }
      if (controller.signal.aborted) {
        state.sessionId = undefined;
        const budgeted = await host.budget('bash', text, options.maxOutputTokens);
        return errorResult(
          'tool_failed',
          `${budgeted.output}${budgeted.output && !budgeted.output.endsWith('\n') ? '\n' : ''}The command did not finish within ${Math.round(timeoutMs / 1000)} seconds, so the shell was killed; the next command starts a new one (working folder and variables reset).`,
        );
      }
      if (polled.data?.exit_code !== undefined) {
        state.sessionId = undefined;
        const budgeted = await host.budget(
          'bash',
          `${text}${text && !text.endsWith('\n') ? '\n' : ''}[the shell exited with code ${polled.data.exit_code}; the next command starts a new one]`,
          options.maxOutputTokens,
        );
        return okResult(budgeted.output);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs one call of Anthropic's bash tool on the host's persistent shell: `command` runs in the same shell as the
 * previous ones (working folder and exported variables survive), `restart: true` kills it and starts afresh.
 */
export function runBash(host: BashHost, input: unknown, options: BashOptions = {}): Promise<ToolResult> {
  let state = states.get(host);
  if (!state) {
    state = { queue: new SerialQueue() };
    states.set(host, state);
  }
  const current = state;
  const task = async (): Promise<ToolResult> => {
    const args = (typeof input === 'object' && input !== null ? input : {}) as { command?: unknown; restart?: unknown };
    const unknown = Object.keys(args).filter((key) => key !== 'command' && key !== 'restart');
    if (unknown.length)
      return errorResult(
        'invalid_arguments',
        `Invalid arguments for bash: unknown field ${JSON.stringify(unknown[0])}; expected command (string) or restart (true)`,
      );
    if (args.restart === true) {
      await stop(host, current);
      const failed = await start(host, current, options.callId);
      return failed ?? okResult('The shell was restarted.');
    }
    if (typeof args.command !== 'string' || args.command.trim() === '') {
      return errorResult('invalid_arguments', 'Invalid arguments for bash: command must be a non-empty string (or pass restart: true)');
    }
    return runCommand(host, current, args.command, options);
  };
  return current.queue.run(task);
}
