// Decides whether a shell command verifies the workspace (tests, builds, lints, typechecks, syntax checks of a file, or
// running the code under change: a workspace script or program), so that its completion may reset the
// anti-blind-editing gate. It errs on the side of "no": a command that only reads, only mentions a tool, asks a version,
// or whose exit code could hide a failure, does not count.

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
  'py.test',
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

/** Tools that verify only with one of these subcommands (`run` runs the code under change). */
const SUBCOMMANDS: Record<string, readonly string[]> = {
  cargo: ['test', 'build', 'check', 'clippy', 'nextest', 'run'],
  go: ['test', 'build', 'vet', 'run'],
  dotnet: ['test', 'build', 'run'],
  swift: ['test', 'build', 'run'],
  mix: ['test', 'compile', 'run'],
  deno: ['test', 'check', 'lint', 'run'],
  biome: ['check', 'lint', 'ci'],
  ruff: ['check'],
  playwright: ['test'],
  bazel: ['test', 'build', 'run'],
  rails: ['test'],
  rake: ['test', 'spec'],
};

/** Interpreters that run a program file named as their first non-option argument (`-c`/`-e` code does not count). */
const SCRIPT_RUNNERS = new Set(['node', 'bash', 'sh', 'zsh', 'dash', 'ksh', 'ruby', 'perl', 'php', 'tsx', 'ts-node', 'bun']);
/** Options of those interpreters that take inline code (not a file of the workspace) or start a prompt. */
const INLINE_CODE_FLAGS = new Set(['-c', '-e', '--eval', '-p', '--print', '-r', '-i', '--interactive', '-E']);
/** First arguments of a script that start a server or a watcher, which never completes as a check. */
const LONG_RUNNING = new Set(['serve', 'server', 'runserver', 'dev', 'start', 'watch']);
/** Python modules that are tools of their own rather than the code under change: installers, servers, formatters. */
const PYTHON_NON_CHECK_MODULES = new Set([
  'pip',
  'pip3',
  'venv',
  'virtualenv',
  'ensurepip',
  'pipx',
  'http.server',
  'json.tool',
  'pydoc',
  'site',
  'webbrowser',
  'idlelib',
  'twine',
  'build',
  'black',
  'isort',
  'autopep8',
  'yapf',
]);
/** Python project runners that run the command that follows them in the project's environment. */
const PYTHON_ENV_RUNNERS = new Set(['uv', 'poetry', 'pipenv', 'pdm', 'hatch', 'rye']);

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

/** Arguments that make any command a help or version query, wherever they stand. */
const QUERY_FLAGS = new Set(['--version', '--help']);
/** Arguments that ask for a version or help only when they are the whole argument list (`node -v`, not `pytest -v`). */
const SOLE_QUERY_ARGS = new Set(['-v', '-V', '-h', '-version', '-help', 'help', 'version']);

/** Test runners whose `-v` alone asks for verbose output, not their version. */
const VERBOSE_V_TOOLS = new Set(['pytest', 'py.test', 'tox', 'nox', 'ctest']);

function isQuery(tool: string, args: readonly string[]): boolean {
  if (args.some((arg) => QUERY_FLAGS.has(arg)) || args[0] === 'help') return true;
  if (VERBOSE_V_TOOLS.has(tool)) return false;
  return args.length > 0 && args.every((arg) => SOLE_QUERY_ARGS.has(arg));
}

function looksLikeFile(arg: string | undefined): boolean {
  return arg !== undefined && !arg.startsWith('-') && (arg.includes('/') || /\.[A-Za-z0-9]+$/.test(arg));
}

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

/** Whether an interpreter's arguments run a program file (not inline code, a prompt or a server). */
function runsScriptFile(args: readonly string[]): boolean {
  const first = args.findIndex((arg) => !arg.startsWith('-'));
  if (first < 0 || args.slice(0, first).some((arg) => INLINE_CODE_FLAGS.has(arg))) return false;
  return looksLikeFile(args[first]) && !LONG_RUNNING.has(args[first + 1] ?? '');
}

function isPythonRun(args: readonly string[]): boolean {
  const [flag, module, ...rest] = args;
  if (flag === '-m' && module !== undefined) {
    if (PYTHON_FILE_MODULES.has(module)) return rest.some((arg) => !arg.startsWith('-'));
    if (PYTHON_MODULES.has(module)) return true;
    // Any other module is the code under change (`python -m mypkg`), unless it is a tool of its own.
    return !PYTHON_NON_CHECK_MODULES.has(module) && !LONG_RUNNING.has(rest[0] ?? '');
  }
  // `python reproduce.py`, `python manage.py test`: a program file of the workspace.
  return runsScriptFile(args);
}

function isVerifyingRun(list: string[]): boolean {
  const [command, ...args] = unwrap(list);
  if (command === undefined) return false;
  // A program of the workspace (`./run.sh`, `bin/rails test`) runs the code under change, unless it is a known tool.
  const tool = command.includes('/') ? command.slice(command.lastIndexOf('/') + 1) : command;
  if (isQuery(tool, args)) return false;
  if (PACKAGE_MANAGERS.has(tool)) {
    const [first, second] = args;
    if (first === 'run' || first === 'run-script')
      return second !== undefined && (SCRIPT.test(second) || (tool === 'bun' && looksLikeFile(second)));
    if (first === 'exec' || first === 'dlx' || first === 'x') return isVerifyingRun(args.slice(1));
    if (tool === 'bun' && looksLikeFile(first)) return true;
    if (first !== undefined && SCRIPT.test(first)) return first !== 'ci';
    // `pnpm vitest`, `yarn jest --ci`: a package binary run by name.
    return tool !== 'npm' && first !== undefined && !first.startsWith('-') && isVerifyingRun(args);
  }
  if (PACKAGE_RUNNERS.has(tool)) return isVerifyingRun(args.filter((arg, i) => !(i === 0 && arg.startsWith('-'))));
  if (PYTHON_ENV_RUNNERS.has(tool)) return args[0] === 'run' && isVerifyingRun(args.slice(1));
  if (tool === 'node' && args[0] === '--test') return true;
  const syntaxFlags = SYNTAX_CHECK_FLAGS[tool];
  if (syntaxFlags?.includes(args[0] ?? '')) return args[1] !== undefined && !args[1].startsWith('-');
  if (/^python(?:\d+(?:\.\d+)?)?$/.test(tool)) return isPythonRun(args);
  if (SCRIPT_RUNNERS.has(tool)) return runsScriptFile(args);
  if (tool === 'bundle') return args[0] === 'exec' && isVerifyingRun(args.slice(1));
  if (VERIFYING_TOOLS.has(tool)) return true;
  const subcommands = SUBCOMMANDS[tool];
  if (subcommands) return subcommands.includes(args[0] ?? '');
  const goals = GOAL_TOOLS[tool] ?? GOAL_TOOLS[command];
  if (goals) {
    const named = args.filter((arg) => !arg.startsWith('-') && !arg.includes('='));
    // `gradle :app:test` names the goal of one project.
    return named.length === 0 ? tool === 'make' : named.some((goal) => goals.includes(goal.slice(goal.lastIndexOf(':') + 1)));
  }
  return command !== tool && !command.startsWith('/') && !LONG_RUNNING.has(args[0] ?? '');
}

/**
 * The default classifier: true when the command's last step (after `cd … &&` and similar) runs a test, build, lint,
 * typecheck, a syntax check of a file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`, `ruby -c FILE`,
 * `php -l FILE`) or the code under change (`python reproduce.py`, `python -m mypkg`, `node script.js`, `./run.sh`,
 * `bash run.sh`, `go run .`, `cargo run`, `npx tsx file.ts`, `deno run`, …), with any flags (`pytest -v`), and no pipe,
 * `||` or background `&` could hide its exit code. A version or help query (`node -v`, `tsc --version`) does not count.
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
