import {
  ANTHROPIC_NATIVE_VOCABULARY,
  errorResult,
  killCommand,
  okResult,
  pollCommand,
  SerialQueue,
  startCommand,
  type ToolHost,
  type ToolResult,
} from 'toolhost';

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

type BashHost = Pick<ToolHost, 'call' | 'budget' | 'shellPatch'> & Partial<Pick<ToolHost, 'recordCommand'>>;

/** The shell a host's bash tool talks to: one long-lived exec_command session. */
interface BashState {
  sessionId?: number;
  /** The shell's working folder after its last command (absolute); undefined until one completed. */
  folder?: string;
  /** Commands run one at a time, in order. */
  queue: SerialQueue;
}

const states = new WeakMap<object, BashState>();

/** Starts bash when there is one (else sh) reading commands from its input, no startup files. */
const START_SHELL = 'if command -v bash >/dev/null 2>&1; then exec bash --noprofile --norc 2>&1; else exec sh 2>&1; fi';

/** How long one poll of the shell waits for output (write_stdin waits at least 250 ms unless the shell exits). */
const POLL_MS = 250;

/** Texts of this tool name `bash` only: the model was given no exec_command or write_stdin. */
const vocabulary = ANTHROPIC_NATIVE_VOCABULARY;

function randomTag(): string {
  return Math.random().toString(36).slice(2, 10) + Date.now().toString(36);
}

/** `text` and then `line` on a line of its own. */
function thenLine(text: string, line: string): string {
  return `${text}${text && !text.endsWith('\n') ? '\n' : ''}${line}`;
}

/** A duration for the model: `0.1 seconds`, `1 second`, `120 seconds`. */
function seconds(ms: number): string {
  const value = Number((ms / 1000).toFixed(3));
  return `${value} second${value === 1 ? '' : 's'}`;
}

async function stop(host: BashHost, state: BashState): Promise<void> {
  const sessionId = state.sessionId;
  state.sessionId = undefined;
  state.folder = undefined;
  if (sessionId === undefined) return;
  await killCommand(host, sessionId, { vocabulary });
}

async function start(host: BashHost, state: BashState, callId: string | undefined): Promise<ToolResult | undefined> {
  const started = await startCommand(host, START_SHELL, { yieldMs: POLL_MS, callId, vocabulary });
  if (!started.running || started.sessionId === undefined) {
    const reason = started.ok ? started.output.trim() || 'it exited at once' : `error ${started.result.error?.code ?? 'tool_failed'}`;
    return errorResult('spawn_failed', `The bash shell could not start (${reason}); call bash again to retry.`);
  }
  state.sessionId = started.sessionId;
  return undefined;
}

async function runCommand(host: BashHost, state: BashState, command: string, options: BashOptions): Promise<ToolResult> {
  // A patch sent as a command goes to the patch engine (applied, or refused when bare) and never to the shell.
  const patched = await host.shellPatch(command, {
    workdir: state.folder,
    vocabulary,
    maxOutputTokens: options.maxOutputTokens,
    callId: options.callId,
  });
  if (patched) return patched;
  if (state.sessionId === undefined) {
    const failed = await start(host, state, options.callId);
    if (failed) return failed;
  }
  const sessionId = state.sessionId as number;
  const tag = `__TOOLHOST_BASH_${randomTag()}__`;
  const sentinel = new RegExp(`\\n${tag}(\\d+)__([\\s\\S]*?)${tag}\\n`);
  // The command runs in the shell itself (cd and variables persist) with no input of its own, then prints the
  // sentinel with its exit code and the shell's folder (where a patch sent next is applied).
  const script = `{ ${command}\n} < /dev/null\nprintf '\\n%s%s__%s%s\\n' '${tag}' "$?" "$PWD" '${tag}'\n`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_BASH_TIMEOUT_MS;
  const deadline = performance.now() + timeoutMs;
  let text = '';
  let chars = script;
  for (;;) {
    // No abort signal: cancelling a poll kills the shell, and a command that completes near the deadline keeps it.
    const polled = await pollCommand(host, sessionId, {
      chars,
      yieldMs: Math.max(1, Math.min(POLL_MS, Math.ceil(deadline - performance.now()))),
      maxOutputTokens: 50_000,
      callId: options.callId,
      vocabulary,
    });
    chars = '';
    if (!polled.ok) {
      const code = polled.result.error?.code ?? 'session_exited';
      state.sessionId = undefined;
      state.folder = undefined;
      return errorResult(
        code,
        thenLine(
          text,
          `The bash shell is gone (error ${code}); the next command starts a new one, so the working folder and variables are reset.`,
        ),
      );
    }
    text += polled.output;
    const done = sentinel.exec(text);
    if (done) {
      const body = text.slice(0, done.index);
      const exitCode = Number(done[1]);
      state.folder = done[2];
      // A test, build or lint run in this shell counts as verification for the anti-blind-editing gate.
      host.recordCommand?.(command, exitCode);
      const shown = exitCode === 0 ? body : thenLine(body, `[exit code ${exitCode}]`);
      const budgeted = await host.budget('bash', shown, options.maxOutputTokens);
      return okResult(budgeted.output);
    }
    if (polled.exitCode !== undefined) {
      state.sessionId = undefined;
      state.folder = undefined;
      const budgeted = await host.budget(
        'bash',
        thenLine(text, `[the shell exited with code ${polled.exitCode}; the next command starts a new one]`),
        options.maxOutputTokens,
      );
      return okResult(budgeted.output);
    }
    if (performance.now() >= deadline) {
      // Still running at the deadline: only now is the shell killed.
      await stop(host, state);
      const budgeted = await host.budget('bash', text, options.maxOutputTokens);
      return errorResult(
        'tool_failed',
        thenLine(
          budgeted.output,
          `bash did not return within ${seconds(timeoutMs)}, so the shell was killed; the next command starts a new one (working folder and variables reset).`,
        ),
      );
    }
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
