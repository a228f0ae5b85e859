import { describe, expect, it } from 'vitest';
import { applyShellEnvironmentPolicy, checkShellEnvironmentPolicy, commandEnvironment } from './shell-environment.js';

const HOST = Object.freeze({
  PATH: '/usr/bin:/bin',
  HOME: '/home/ada',
  USER: 'ada',
  SHELL: '/bin/bash',
  LANG: 'en_US.UTF-8',
  LC_ALL: 'C.UTF-8',
  LC_TIME: 'de_DE.UTF-8',
  TERM: 'xterm',
  TMPDIR: '/tmp',
  SystemRoot: 'C:\\Windows',
  EDITOR: 'vim',
  OPENAI_API_KEY: 'sk-1',
  GITHUB_TOKEN: 'ghp-1',
  github_token_2: 'ghp-2',
  AWS_SECRET_ACCESS_KEY: 'aws',
  DB_Password: 'pw',
  KEYBOARD: 'us',
  AWS_REGION: 'eu-west-1',
  UNSET: undefined,
});

const names = (env: Record<string, string>) => Object.keys(env).sort();

describe('applyShellEnvironmentPolicy', () => {
  it('inherit all (default) keeps every variable except credential-like names, matched ignoring case', () => {
    expect(names(applyShellEnvironmentPolicy(HOST))).toEqual([
      'AWS_REGION',
      'EDITOR',
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_TIME',
      'PATH',
      'SHELL',
      'SystemRoot',
      'TERM',
      'TMPDIR',
      'USER',
    ]);
  });

  it('inherit core keeps only the variables a shell needs (locale, temp folder, Windows system folders)', () => {
    expect(names(applyShellEnvironmentPolicy(HOST, { inherit: 'core' }))).toEqual([
      'HOME',
      'LANG',
      'LC_ALL',
      'LC_TIME',
      'PATH',
      'SHELL',
      'SystemRoot',
      'TERM',
      'TMPDIR',
      'USER',
    ]);
  });

  it('inherit none starts empty; set still applies', () => {
    expect(applyShellEnvironmentPolicy(HOST, { inherit: 'none' })).toEqual({});
    expect(applyShellEnvironmentPolicy(HOST, { inherit: 'none', set: { PATH: '/opt/bin' } })).toEqual({ PATH: '/opt/bin' });
  });

  it('excludeDefaults false keeps *KEY*, *SECRET*, *TOKEN* and *PASSWORD* names', () => {
    const env = applyShellEnvironmentPolicy(HOST, { excludeDefaults: false });
    expect(env).toMatchObject({
      OPENAI_API_KEY: 'sk-1',
      GITHUB_TOKEN: 'ghp-1',
      github_token_2: 'ghp-2',
      AWS_SECRET_ACCESS_KEY: 'aws',
      DB_Password: 'pw',
      KEYBOARD: 'us',
    });
    expect(names(env)).toHaveLength(Object.values(HOST).filter((value) => value !== undefined).length);
    expect(names(applyShellEnvironmentPolicy(HOST, { inherit: 'core', excludeDefaults: false }))).not.toContain('OPENAI_API_KEY');
  });

  it('exclude drops names matching its globs, ignoring case', () => {
    expect(names(applyShellEnvironmentPolicy(HOST, { exclude: ['aws_*', 'LC_?IME', 'EDIT[A-Z]R'] }))).toEqual([
      'HOME',
      'LANG',
      'LC_ALL',
      'PATH',
      'SHELL',
      'SystemRoot',
      'TERM',
      'TMPDIR',
      'USER',
    ]);
    expect(names(applyShellEnvironmentPolicy(HOST, { exclude: ['[!P]*'] }))).toEqual(['PATH']);
    expect(names(applyShellEnvironmentPolicy({ 'A.B': '1', AXB: '2', 'A+': '3', AA: '4' }, { exclude: ['A.B', 'A+'] }))).toEqual([
      'AA',
      'AXB',
    ]);
  });

  it('includeOnly keeps only the names its globs match, after the exclusions; an empty list keeps everything', () => {
    expect(applyShellEnvironmentPolicy(HOST, { includeOnly: ['PATH', 'home', '*_TOKEN'] })).toEqual({
      PATH: '/usr/bin:/bin',
      HOME: '/home/ada',
    });
    expect(applyShellEnvironmentPolicy(HOST, { includeOnly: ['*_TOKEN'], excludeDefaults: false })).toEqual({ GITHUB_TOKEN: 'ghp-1' });
    expect(names(applyShellEnvironmentPolicy(HOST, { includeOnly: [] }))).toEqual(names(applyShellEnvironmentPolicy(HOST)));
  });

  it('set is added last: it overrides inherited values and passes every filter', () => {
    const env = applyShellEnvironmentPolicy(HOST, { includeOnly: ['PATH'], exclude: ['PATH'], set: { PATH: '/x', MY_API_KEY: 'given' } });
    expect(env).toEqual({ PATH: '/x', MY_API_KEY: 'given' });
  });

  it('is pure: the source is untouched and undefined values are skipped', () => {
    const source = { A: '1', B: undefined };
    const env = applyShellEnvironmentPolicy(source, { set: { C: '3' } });
    expect(env).toEqual({ A: '1', C: '3' });
    expect(source).toEqual({ A: '1', B: undefined });
    env.A = 'changed';
    expect(applyShellEnvironmentPolicy(source)).toEqual({ A: '1' });
  });
});

describe('commandEnvironment', () => {
  it('adds NO_COLOR, PAGER and GIT_PAGER, drops forced colours, and lets set win', () => {
    const env = commandEnvironment({ PATH: '/bin', FORCE_COLOR: '3', CLICOLOR_FORCE: '1', PAGER: 'less' }, { inherit: 'all' });
    expect(env).toEqual({ PATH: '/bin', NO_COLOR: '1', PAGER: 'cat', GIT_PAGER: 'cat' });
    expect(commandEnvironment({}, { inherit: 'none', includeOnly: ['PATH'], set: { PAGER: 'more' } })).toEqual({
      NO_COLOR: '1',
      PAGER: 'more',
      GIT_PAGER: 'cat',
    });
  });
});

describe('checkShellEnvironmentPolicy', () => {
  it('accepts undefined and every documented field', () => {
    expect(() => checkShellEnvironmentPolicy(undefined)).not.toThrow();
    expect(() =>
      checkShellEnvironmentPolicy({ inherit: 'core', excludeDefaults: false, exclude: ['A*'], includeOnly: ['B'], set: { C: 'd' } }),
    ).not.toThrow();
  });

  it.each([
    [null, 'shellEnvironment must be an object'],
    [{ inherit: 'some' }, 'shellEnvironment.inherit must be one of all, core, none, got "some"'],
    [{ excludeDefaults: 'yes' }, 'shellEnvironment.excludeDefaults must be a boolean'],
    [{ exclude: 'AWS_*' }, 'shellEnvironment.exclude must be an array of non-empty glob patterns'],
    [{ includeOnly: [''] }, 'shellEnvironment.includeOnly must be an array of non-empty glob patterns'],
    [{ set: { 'A=B': 'x' } }, 'shellEnvironment.set has an invalid variable name "A=B"'],
    [{ set: { A: 1 } }, 'shellEnvironment.set.A must be a string without NUL characters'],
    [{ env: {} }, 'shellEnvironment has no field "env"; the fields are inherit, excludeDefaults, exclude, includeOnly, set'],
  ])('throws invalid_options for %j', (policy, message) => {
    expect(() => checkShellEnvironmentPolicy(policy)).toThrow(expect.objectContaining({ code: 'invalid_options', message }));
  });
});
