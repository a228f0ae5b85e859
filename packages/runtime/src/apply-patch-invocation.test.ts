import { describe, expect, it } from 'vitest';
import { parsePatch } from '@toolhost/patch';
import { parseApplyPatchInvocation, rebaseOperations, recognizeShellCommandPatch } from './apply-patch-invocation.js';

const PATCH = '*** Begin Patch\n*** Add File: foo\n+hi\n*** End Patch';
const heredoc = (prefix: string, tag = "'PATCH'", close = 'PATCH', suffix = '') =>
  `${prefix}apply_patch <<${tag}\n${PATCH}\n${close}${suffix}`;

describe('parseApplyPatchInvocation', () => {
  it.each([
    ['a quoted tag', heredoc('')],
    ['a double-quoted tag', heredoc('', '"EOF"', 'EOF')],
    ['a bare tag', heredoc('', 'EOF', 'EOF')],
    ['a space before the tag', heredoc('', " 'END_PATCH'", 'END_PATCH')],
    ['applypatch', `applypatch <<'PATCH'\n${PATCH}\nPATCH`],
    ['leading blanks and a trailing newline', `  ${heredoc('')}\n\n`],
    ['CRLF line endings', heredoc('').replace(/\n/g, '\r\n')],
    ['trailing spaces after the closing tag', heredoc('', "'PATCH'", 'PATCH  ')],
  ])('recognises %s', (_name, cmd) => {
    expect(parseApplyPatchInvocation(cmd)).toEqual({ patch: PATCH });
  });

  it.each([
    ['a bare folder', 'cd foo && ', 'foo'],
    ['a single-quoted folder with spaces', "cd 'foo bar' && ", 'foo bar'],
    ['a double-quoted folder with spaces', 'cd "foo bar" && ', 'foo bar'],
    ['no spaces around &&', 'cd src/app&&', 'src/app'],
    ['a home folder (refused later as outside the workspace)', 'cd ~/x && ', '~/x'],
  ])('takes the folder of a leading cd: %s', (_name, prefix, directory) => {
    expect(parseApplyPatchInvocation(heredoc(prefix))).toEqual({ patch: PATCH, directory });
  });

  it.each([
    ['cd - (the previous folder)', 'cd - && '],
    ['a cd option', 'cd -P && '],
    ['a quoted cd -', "cd '-' && "],
    ['a double-quoted cd option', 'cd "-L" && '],
  ])('leaves %s to the shell: it names no folder', (_name, prefix) => {
    expect(parseApplyPatchInvocation(heredoc(prefix))).toBeUndefined();
  });

  it('strips leading tabs from the body and the closing tag with <<-', () => {
    expect(parseApplyPatchInvocation(`apply_patch <<-EOF\n\t*** Begin Patch\n\t*** Add File: foo\n\t+hi\n\t*** End Patch\n\tEOF`)).toEqual({
      patch: PATCH,
    });
  });

  it('runs a body without its closing tag to the end, as a shell would', () => {
    expect(parseApplyPatchInvocation(`apply_patch <<'EOF'\n${PATCH}\n`)).toEqual({ patch: `${PATCH}\n` });
  });

  it.each([
    ['a command mentioning apply_patch', 'echo apply_patch'],
    ['grep for the name', "grep -rn 'apply_patch <<' ."],
    ['apply_patch with an argument', `apply_patch foo <<'PATCH'\n${PATCH}\nPATCH`],
    ['apply_patch with a flag and no heredoc', 'apply_patch --help'],
    ['a heredoc on one line only', "apply_patch <<'PATCH'"],
    ['an echo before it', heredoc('echo foo && ')],
    ['cd joined with ;', heredoc('cd foo; ')],
    ['cd joined with ||', heredoc('cd bar || ')],
    ['cd piped into it', heredoc('cd bar | ')],
    ['two cd commands', heredoc('cd foo && cd bar && ')],
    ['cd with two arguments', heredoc('cd foo bar && ')],
    ['cd to a variable', heredoc('cd $HOME && ')],
    ['cd to a command substitution', heredoc('cd "$(pwd)" && ')],
    ['a command after the heredoc line', heredoc('', "'PATCH' && echo done")],
    ['a command after the closing tag', heredoc('', "'PATCH'", 'PATCH', '\necho done')],
    ['a pipe into apply_patch', `cat <<'PATCH' | apply_patch\n${PATCH}\nPATCH`],
    ['a here-string', `apply_patch <<< "${PATCH}"`],
    ['a different command name', heredoc('').replace('apply_patch', 'apply_patches')],
  ])('leaves %s to the shell', (_name, cmd) => {
    expect(parseApplyPatchInvocation(cmd)).toBeUndefined();
  });
});

describe('rebaseOperations', () => {
  it('puts every relative path and moveTo under the folder, keeping absolute paths and the contents', () => {
    const parsed = parsePatch(
      [
        '*** Begin Patch',
        '*** Add File: new.txt',
        '+*** Update File: not-a-header.txt',
        '*** Update File: a.txt',
        '*** Move to: ../b.txt',
        '@@',
        ' *** Delete File: context.txt',
        '-x',
        '+y',
        '*** Delete File: /work/abs.txt',
        '*** End Patch',
      ].join('\r\n'),
    );
    if (!parsed.ok) throw new Error(parsed.message);
    const rebased = rebaseOperations(parsed.patch.operations, 'src/app');
    expect(rebased).toEqual([
      { ...parsed.patch.operations[0], path: 'src/app/new.txt' },
      { ...parsed.patch.operations[1], path: 'src/app/a.txt', moveTo: 'src/app/../b.txt' },
      { ...parsed.patch.operations[2], path: '/work/abs.txt' },
    ]);
    expect(rebased[0]).toMatchObject({ kind: 'add', content: '*** Update File: not-a-header.txt\n' });
    expect(rebased[1]).toMatchObject({
      chunks: [
        {
          lines: [
            { kind: ' ', text: '*** Delete File: context.txt' },
            { kind: '-', text: 'x' },
            { kind: '+', text: 'y' },
          ],
        },
      ],
    });
  });

  it('leaves the operations as they are at the root', () => {
    const parsed = parsePatch(PATCH);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(rebaseOperations(parsed.patch.operations, '')).toEqual(parsed.patch.operations);
  });
});

// Cases of openai/codex codex-rs/apply-patch/src/invocation.rs (mod tests): Codex gives its argv, toolhost a command
// string; the argv cases are written as the command a shell would split into that argv.
describe('recognizeShellCommandPatch (cases of codex-rs/apply-patch/src/invocation.rs)', () => {
  const heredocScript = (prefix: string) => `${prefix}apply_patch <<'PATCH'\n${PATCH}\nPATCH`;
  const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const invocation = (patch: string, directory?: string) => ({
    kind: 'invocation',
    invocation: directory === undefined ? { patch } : { patch, directory },
  });

  it.each([
    ['test_literal', `apply_patch ${quote(`${PATCH}\n`)}`, invocation(`${PATCH}\n`)],
    ['test_literal_applypatch', `applypatch ${quote(`${PATCH}\n`)}`, invocation(`${PATCH}\n`)],
    ['test_heredoc', `bash -lc ${quote(heredocScript(''))}`, invocation(PATCH)],
    ['test_heredoc_non_login_shell', `bash -c ${quote(heredocScript(''))}`, invocation(PATCH)],
    ['test_heredoc_applypatch', `bash -lc ${quote(`applypatch <<'PATCH'\n${PATCH}\nPATCH`)}`, invocation(PATCH)],
    ['test_powershell_heredoc', `powershell.exe -Command ${quote(heredocScript(''))}`, invocation(PATCH)],
    ['test_powershell_heredoc_no_profile', `powershell.exe -NoProfile -Command ${quote(heredocScript(''))}`, invocation(PATCH)],
    ['test_pwsh_heredoc', `pwsh -NoProfile -Command ${quote(heredocScript(''))}`, invocation(PATCH)],
    ['test_cmd_heredoc_with_cd', `cmd.exe /c ${quote(heredocScript('cd foo && '))}`, invocation(PATCH, 'foo')],
    ['test_heredoc_with_leading_cd', `bash -lc ${quote(heredocScript('cd foo && '))}`, invocation(PATCH, 'foo')],
    ['test_cd_single_quoted_path_with_spaces', `bash -lc ${quote(heredocScript("cd 'foo bar' && "))}`, invocation(PATCH, 'foo bar')],
    ['test_cd_double_quoted_path_with_spaces', `bash -lc ${quote(heredocScript('cd "foo bar" && '))}`, invocation(PATCH, 'foo bar')],
    ['test_heredoc (as exec_command sends it: the command is the script)', heredocScript(''), invocation(PATCH)],
  ])('%s: recognised', (_source, cmd, expected) => {
    expect(recognizeShellCommandPatch(cmd)).toEqual(expected);
  });

  it.each([
    ['test_cd_with_semicolon_is_ignored', heredocScript('cd foo; ')],
    ['test_cd_or_apply_patch_is_ignored', heredocScript('cd bar || ')],
    ['test_cd_pipe_apply_patch_is_ignored', heredocScript('cd bar | ')],
    ['test_echo_and_apply_patch_is_ignored', heredocScript('echo foo && ')],
    ['test_apply_patch_with_arg_is_ignored', `apply_patch foo <<'PATCH'\n${PATCH}\nPATCH`],
    ['test_double_cd_then_apply_patch_is_ignored', heredocScript('cd foo && cd bar && ')],
    ['test_cd_two_args_is_ignored', heredocScript('cd foo bar && ')],
    ['test_cd_then_apply_patch_then_extra_is_ignored', `${heredocScript('cd bar && ')} && echo done`],
    ['test_echo_then_cd_and_apply_patch_is_ignored', heredocScript('echo foo; cd bar && ')],
  ])('%s: an ordinary command, in bash -lc and as the command itself', (_source, script) => {
    expect(recognizeShellCommandPatch(`bash -lc ${quote(script)}`)).toBeUndefined();
    expect(recognizeShellCommandPatch(script)).toBeUndefined();
  });

  it.each([
    ['test_implicit_patch_single_arg_is_error', quote(PATCH)],
    ['test_implicit_patch_bash_script_is_error', `bash -lc ${quote(PATCH)}`],
    ['test_implicit_patch_bash_script_is_error (as exec_command sends it: the command is the script)', PATCH],
    ['a bare patch with leading blank lines', `\n  ${PATCH}\n`],
    ['a bare patch whose body does not parse (Codex would run it; the shell would expand ***)', '*** Begin Patch\n*** Frobnicate: x'],
  ])('%s: refused as a bare patch', (_source, cmd) => {
    expect(recognizeShellCommandPatch(cmd)).toEqual({ kind: 'implicit' });
  });

  it.each([
    [
      'double quotes, with the escapes the shell removes',
      `apply_patch "*** Begin Patch\n*** Add File: a\n+say \\"hi\\" \\\\ \\$HOME\n*** End Patch"`,
      '*** Begin Patch\n*** Add File: a\n+say "hi" \\ $HOME\n*** End Patch',
    ],
    [
      'single quotes next to double quotes, one word',
      `apply_patch '*** Begin Patch\n*** Add File: a\n+it'"'"'s\n*** End Patch'`,
      "*** Begin Patch\n*** Add File: a\n+it's\n*** End Patch",
    ],
    ['an escaped newline joining the lines', `apply_patch \\\n${quote(PATCH)}`, PATCH],
  ])('takes the argument form with the shell quoting rules: %s', (_name, cmd, patch) => {
    expect(recognizeShellCommandPatch(cmd)).toEqual(invocation(patch));
  });

  it.each([
    ['an expansion in double quotes', 'apply_patch "$PATCH"'],
    ['a command substitution', 'apply_patch "$(cat p.diff)"'],
    ['a backtick in double quotes', 'apply_patch "*** Begin Patch\n+`x`\n*** End Patch"'],
    ['an unclosed quote', "apply_patch '*** Begin Patch"],
    ['a third word', `apply_patch ${quote(PATCH)} extra`],
    ['a pipe after it', `apply_patch ${quote(PATCH)} | cat`],
    ['another command on the next line', `apply_patch ${quote(PATCH)}\nls`],
    ['the argument form inside bash -lc (Codex reads only the heredoc there)', `bash -lc ${quote(`apply_patch ${quote(PATCH)}`)}`],
    ['a shell with another flag', `bash -x ${quote(heredocScript(''))}`],
    ['a program that is not a shell', `python -c ${quote(heredocScript(''))}`],
  ])('leaves %s to the shell', (_name, cmd) => {
    expect(recognizeShellCommandPatch(cmd)).toBeUndefined();
  });
});
