import { ToolHostError } from './tool-host-error.js';

/** Which variables of the host's environment a command starts from. */
export type ShellEnvironmentInherit = 'all' | 'core' | 'none';

/** How the environment of every command is built from the host's (or a remote machine's) environment. */
export interface ShellEnvironmentPolicy {
  /** `'all'` (default) every variable, `'core'` only {@link CORE_ENVIRONMENT_VARIABLES}, `'none'` nothing. */
  inherit?: ShellEnvironmentInherit;
  /** Drop variables whose names match `*KEY*`, `*SECRET*`, `*TOKEN*` or `*PASSWORD*`, ignoring case (default true). */
  excludeDefaults?: boolean;
  /** Glob patterns (`*`, `?`, `[…]`, ignoring case) of names to drop. */
  exclude?: readonly string[];
  /** When non-empty, glob patterns (ignoring case) of the only names kept; applied after the exclusions. */
  includeOnly?: readonly string[];
  /** Variables added last, over everything else (not filtered). */
  set?: Readonly<Record<string, string>>;
}

/** The names `inherit: 'core'` keeps (ignoring case; `LC_*` is every locale variable). */
export const CORE_ENVIRONMENT_VARIABLES: readonly string[] = [
  'PATH',
  'HOME',
  'USER',
  'USERNAME',
  'LOGNAME',
  'SHELL',
  'LANG',
  'LANGUAGE',
  'LC_*',
  'TERM',
  'TZ',
  'TMPDIR',
  'TEMP',
  'TMP',
  // Windows needs these to start most programs.
  'SYSTEMROOT',
  'WINDIR',
  'COMSPEC',
  'PATHEXT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'HOMEDRIVE',
  'HOMEPATH',
];

/** The patterns `excludeDefaults` drops: names that usually hold credentials. */
export const DEFAULT_EXCLUDED_VARIABLES: readonly string[] = ['*KEY*', '*SECRET*', '*TOKEN*', '*PASSWORD*'];

const INHERIT_VALUES: readonly ShellEnvironmentInherit[] = ['all', 'core', 'none'];
const POLICY_FIELDS = new Set(['inherit', 'excludeDefaults', 'exclude', 'includeOnly', 'set']);

/** A case-insensitive, anchored matcher for a glob of `*`, `?` and `[…]` classes (`[!…]` negates). */
function globMatcher(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '*') source += '.*';
    else if (char === '?') source += '.';
    else if (char === '[') {
      const close = pattern.indexOf(']', i + 2);
      if (close < 0) {
        source += '\\[';
        continue;
      }
      let body = pattern.slice(i + 1, close);
      const negated = body.startsWith('!') || body.startsWith('^');
      if (negated) body = body.slice(1);
      source += `[${negated ? '^' : ''}${body.replace(/[\\\]^]/g, '\\$&')}]`;
      i = close;
    } else source += char.replace(/[.+^${}()|\\/\]-]/g, '\\$&');
  }
  return new RegExp(`^${source}$`, 'is');
}

function anyMatcher(patterns: readonly string[]): (name: string) => boolean {
  const matchers = patterns.map(globMatcher);
  return (name) => matchers.some((matcher) => matcher.test(name));
}

const isCore = anyMatcher(CORE_ENVIRONMENT_VARIABLES);
const isDefaultExcluded = anyMatcher(DEFAULT_EXCLUDED_VARIABLES);

/**
 * Builds a command's environment from `source` (the host's or a remote machine's): `inherit` picks the starting
 * variables, then `excludeDefaults` and `exclude` drop names, `includeOnly` keeps only the names it matches, and
 * `set` is added last. Pure: `source` is not changed, and variables whose value is undefined are skipped.
 */
export function applyShellEnvironmentPolicy(
  source: Readonly<Record<string, string | undefined>>,
  policy: ShellEnvironmentPolicy = {},
): Record<string, string> {
  const inherit = policy.inherit ?? 'all';
  const excluded = anyMatcher(policy.exclude ?? []);
  const included = policy.includeOnly && policy.includeOnly.length > 0 ? anyMatcher(policy.includeOnly) : undefined;
  const excludeDefaults = policy.excludeDefaults ?? true;
  const env: Record<string, string> = {};
  if (inherit !== 'none') {
    for (const [name, value] of Object.entries(source)) {
      if (value === undefined) continue;
      if (inherit === 'core' && !isCore(name)) continue;
      if (excludeDefaults && isDefaultExcluded(name)) continue;
      if (excluded(name)) continue;
      if (included && !included(name)) continue;
      env[name] = value;
    }
  }
  return Object.assign(env, policy.set);
}

/** Variables every command gets so its output reads as plain text: no colours, no pager. */
export const COMMAND_ENVIRONMENT_DEFAULTS: Readonly<Record<string, string>> = { NO_COLOR: '1', PAGER: 'cat', GIT_PAGER: 'cat' };

/** Variables that force colour output, dropped from what a command inherits. */
const FORCED_COLOR_VARIABLES = ['FORCE_COLOR', 'CLICOLOR_FORCE'];

/**
 * The environment every command starts with on any backend: {@link applyShellEnvironmentPolicy} over `source`
 * (without the variables that force colours), with {@link COMMAND_ENVIRONMENT_DEFAULTS} added before the policy's
 * `set`, so `set` still wins.
 */
export function commandEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  policy: ShellEnvironmentPolicy = {},
): Record<string, string> {
  const inherited: Record<string, string | undefined> = { ...source };
  for (const name of FORCED_COLOR_VARIABLES) delete inherited[name];
  return applyShellEnvironmentPolicy(inherited, { ...policy, set: { ...COMMAND_ENVIRONMENT_DEFAULTS, ...policy.set } });
}

/** Throws `invalid_options` naming the field when `policy` is not a valid {@link ShellEnvironmentPolicy}. */
export function checkShellEnvironmentPolicy(
  policy: unknown,
  label = 'shellEnvironment',
): asserts policy is ShellEnvironmentPolicy | undefined {
  if (policy === undefined) return;
  const fail = (message: string): never => {
    throw new ToolHostError('invalid_options', `${label}${message}`);
  };
  if (policy === null || typeof policy !== 'object' || Array.isArray(policy)) fail(' must be an object');
  const value = policy as Record<string, unknown>;
  for (const field of Object.keys(value))
    if (!POLICY_FIELDS.has(field)) fail(` has no field ${JSON.stringify(field)}; the fields are ${[...POLICY_FIELDS].join(', ')}`);
  if (value.inherit !== undefined && !INHERIT_VALUES.includes(value.inherit as ShellEnvironmentInherit)) {
    fail(`.inherit must be one of ${INHERIT_VALUES.join(', ')}, got ${JSON.stringify(value.inherit)}`);
  }
  if (value.excludeDefaults !== undefined && typeof value.excludeDefaults !== 'boolean') fail('.excludeDefaults must be a boolean');
  for (const field of ['exclude', 'includeOnly'] as const) {
    const patterns = value[field];
    if (patterns === undefined) continue;
    if (!Array.isArray(patterns) || patterns.some((pattern) => typeof pattern !== 'string' || pattern === ''))
      fail(`.${field} must be an array of non-empty glob patterns`);
  }
  if (value.set !== undefined) {
    if (value.set === null || typeof value.set !== 'object' || Array.isArray(value.set))
      fail('.set must be an object of variable names to string values');
    for (const [name, entry] of Object.entries(value.set as Record<string, unknown>)) {
      if (name === '' || name.includes('=') || name.includes('\0')) fail(`.set has an invalid variable name ${JSON.stringify(name)}`);
      if (typeof entry !== 'string' || entry.includes('\0')) fail(`.set.${name} must be a string without NUL characters`);
    }
  }
}
