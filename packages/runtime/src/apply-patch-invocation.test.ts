import { describe, expect, it } from 'vitest';
import { parsePatch } from '@toolhost/patch';
import { parseApplyPatchInvocation, rebaseOperations } from './apply-patch-invocation.js';

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
