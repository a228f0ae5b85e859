// Decides whether a shell command verifies the workspace (tests, builds, lints, typechecks, syntax checks of a file), so
// that its completion may reset the anti-blind-editing gate. It errs on the side of "no": a command that only mentions a
// tool, or whose exit code could hide a failure, does not count.

/** Words that run the next word as the command (with how many option arguments they take). */
const WRAPPERS = new Set(['time', 'env', 'command', 'exec', 'nice', 'nohup', 'sudo']);

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const SCRIPT = /^(?:test|tests|build|lint|typecheck|type-check|check|verify)(?:[:_-][\w:.-]*)?$/;
const PACKAGE_RUNNERS = new Set(['npx', 'bunx']);

/** Tools that verify whenever they run (apart from --version/--help). */
const VERIFYING_TOOLS = new Set([
  'vitest',
  'jest',
  'mocha',
  'ava',
  'tap',
  'tsc',
  'vue-tsc',
  'eslint',
  'oxlint',
  'pytest',
  'mypy',
  'flake8',
  'pylint',
  'pyright',
  'tox',
  'nox',
  'ctest',
  'rspec',
  'phpunit',
  'golangci-lint',
  'shellcheck',
  'stylelint',
  'tsd',
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

/** Interpreters whose flag checks the syntax of the file that follows it without running it. */
const SYNTAX_CHECK_FLAGS: Record<string, readonly string[]> = {
  node: ['--check', '-c'],
  bash: ['-n'],
  sh: ['-n'],
  zsh: ['-n'],
  dash: ['-n'],
  ksh: ['-n'],
  ruby: ['-c'],
  perl: ['-c'],
  php: ['-l'],
};

/** Python modules that verify: the ones that check files need a file or folder to check (without one they read stdin or sys.path). */
const PYTHON_MODULES = new Set(['pytest', 'unittest', 'mypy', 'tox']);
const PYTHON_FILE_MODULES = new Set(['py_compile', 'compileall']);

const NOT_A_RUN = new Set(['--version', '-v', '-V', '--help', '-h', 'help', 'version']);

function words(segment: string): string[] {
  return segment
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => word.replace(/^['"]|['"]$/g, ''));
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
  if (tool === 'node' && args[0] === '--test') return true;
  const syntaxFlags = SYNTAX_CHECK_FLAGS[tool];
  if (syntaxFlags) return syntaxFlags.includes(args[0] ?? '') && args[1] !== undefined && !args[1].startsWith('-');
  if (/^python3?$/.test(tool)) {
    const [flag, module, ...rest] = args;
    if (flag !== '-m' || module === undefined) return false;
    if (PYTHON_FILE_MODULES.has(module)) return rest.some((arg) => !arg.startsWith('-'));
    return PYTHON_MODULES.has(module);
  }
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
 * The default classifier: true when the command's last step (after `cd … &&` and similar) runs a test, build, lint,
 * typecheck or a syntax check of a file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`, `ruby -c FILE`,
 * `php -l FILE`), and no pipe, `||` or background `&` could hide its exit code.
 */
export function isVerificationCommand(cmd: string): boolean {
  const withoutComments = cmd.replace(/(^|\s)#.*$/gm, '$1');
  if (/\|/.test(withoutComments) || /(^|[^&])&(?!&)/.test(withoutComments.replace(/[<>]&|&[<>]|\d>&\d/g, ''))) return false;
  const segments = withoutComments
    .split(/&&|;|\n/)
    .map((segment) => segment.trim())
    .filter(Boolean);
  const last = segments.at(-1);
  return last !== undefined && isVerifyingRun(words(last));
}
