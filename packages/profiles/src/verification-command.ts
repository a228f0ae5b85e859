// Decides whether a shell command verifies the workspace (tests, builds, lints, typechecks), so that its exit code 0
// may clear the anti-blind-editing gate. It errs on the side of "no": a command that only mentions a tool, or whose
// exit code could hide a failure, does not count.

/** Words that run the next word as the command (with how many option arguments they take). */
const WRAPPERS = new Set(['time', 'env', 'command', 'exec', 'nice', 'nohup', 'sudo']);

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SCRIPT = /^(?:test|tests|build|lint|typecheck|type-check|check|verify)(?:[:_-][\w:.-]*)?$/;
const PACKAGE_RUNNERS = new Set(['npx', 'bunx']);

/** Tools that verify whenever they run (apart from --version/--help). */
const VERIFYING_TOOLS = new Set([
  'vitest', 'jest', 'mocha', 'ava', 'tap', 'tsc', 'vue-tsc', 'eslint', 'oxlint', 'pytest', 'mypy', 'flake8', 'pylint',
  'pyright', 'tox', 'nox', 'ctest', 'rspec', 'phpunit', 'golangci-lint', 'shellcheck', 'stylelint', 'tsd',
]);

/** Tools that verify only with one of these subcommands. */
const SUBCOMMANDS: Record<string, readonly string[]> = {
  cargo: ['test', 'build', 'check', 'clippy', 'nextest'],
  go: ['test', 'build', 'vet'],
  dotnet: ['test', 'build'],
  swift: ['test', 'build'],
  mix: ['test', 'compile'],
  deno: ['test', 'check', 'lint'],
  biome: ['check', 'lint', 'ci'],
  ruff: ['check'],
  playwright: ['test'],
  bazel: ['test', 'build'],
};

/** Build tools whose arguments (any of them) name a verifying goal; no argument runs their default goal. */
const GOAL_TOOLS: Record<string, readonly string[]> = {
  make: ['test', 'check', 'build', 'lint', 'all', 'tests', 'typecheck'],
  mvn: ['test', 'verify', 'package', 'install', 'compile'],
  gradle: ['test', 'build', 'check', 'verify'],
  './gradlew': ['test', 'build', 'check', 'verify'],
  gradlew: ['test', 'build', 'check', 'verify'],
};

const NOT_A_RUN = new Set(['--version', '-v', '-V', '--help', '-h', 'help', 'version']);

function words(segment: string): string[] {
  return segment.trim().split(/\s+/).filter(Boolean).map((word) => word.replace(/^['"]|['"]$/g, ''));
}

/** Drops `VAR=value` assignments, wrappers such as `time`, and `timeout N`, returning the real command's words. */
function unwrap(list: string[]): string[] {
  let rest = list;
  for (;;) {
    const [first, second] = rest;
    if (first === undefined) return rest;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(first)) rest = rest.slice(1);
    else if (WRAPPERS.has(first)) rest = rest.slice(1);
    else if (first === 'timeout' && second !== undefined) rest = rest.slice(2);
    else return rest;
  }
}

function isVerifyingRun(list: string[]): boolean {
  const [tool, ...args] = unwrap(list);
  if (tool === undefined || args.some((arg) => NOT_A_RUN.has(arg))) return false;
  if (PACKAGE_MANAGERS.has(tool)) {
    const [first, second] = args;
    if (first === 'run' || first === 'run-script') return second !== undefined && SCRIPT.test(second);
    if (first === 'exec' || first === 'dlx' || first === 'x') return isVerifyingRun(args.slice(1));
    return first !== undefined && SCRIPT.test(first) && first !== 'ci';
  }
  if (PACKAGE_RUNNERS.has(tool)) return isVerifyingRun(args.filter((arg, i) => !(i === 0 && arg.startsWith('-'))));
  if (tool === 'node') return args[0] === '--test';
  if (/^python3?$/.test(tool)) return args[0] === '-m' && ['pytest', 'unittest', 'mypy', 'tox'].includes(args[1] ?? '');
  if (tool === 'bundle') return args[0] === 'exec' && isVerifyingRun(args.slice(1));
  if (VERIFYING_TOOLS.has(tool)) return true;
  const subcommands = SUBCOMMANDS[tool];
  if (subcommands) return subcommands.includes(args[0] ?? '');
  const goals = GOAL_TOOLS[tool];
  if (goals) {
    const named = args.filter((arg) => !arg.startsWith('-') && !arg.includes('='));
    return named.length === 0 ? tool === 'make' : named.some((goal) => goals.includes(goal));
  }
  return false;
}

/**
 * The default classifier: true when the command's last step (after `cd … &&` and similar) runs a test, build, lint or
 * typecheck, and no pipe, `||` or background `&` could hide its exit code.
 */
export function isVerificationCommand(cmd: string): boolean {
  const withoutComments = cmd.replace(/(^|\s)#.*$/gm, '$1');
  if (/\|/.test(withoutComments) || /(^|[^&])&(?!&)/.test(withoutComments.replace(/[<>]&|&[<>]|\d>&\d/g, ''))) return false;
  const segments = withoutComments.split(/&&|;|\n/).map((segment) => segment.trim()).filter(Boolean);
  const last = segments.at(-1);
  return last !== undefined && isVerifyingRun(words(last));
}
