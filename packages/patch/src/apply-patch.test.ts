import { describe, expect, it } from 'vitest';
import { createMemoryWorkspace, type Workspace } from '@toolhost/core';
import { applyPatch } from './apply-patch.js';
import type { DiffEntry } from './diff-entry.js';
import { PathLocks } from './path-locks.js';

const patch = (...lines: string[]) => ['*** Begin Patch', ...lines, '*** End Patch'].join('\n');
const diffOf = (result: { data?: Record<string, unknown> }) => result.data?.diff as DiffEntry[];

async function run(files: Record<string, string>, text: string) {
  const workspace = createMemoryWorkspace(files);
  const result = await applyPatch(workspace, text, { locks: new PathLocks() });
  return { workspace, result, files: workspace.snapshot() };
}

describe('apply_patch semantics', () => {
  it('adds, updates and deletes files with Codex-style output', async () => {
    const { result, files } = await run(
      { 'a.txt': 'one\ntwo\nthree\n', 'old.txt': 'bye\n' },
      patch('*** Add File: new/b.txt', '+hello', '*** Update File: a.txt', '@@', ' one', '-two', '+TWO', '*** Delete File: old.txt'),
    );
    expect(result.ok).toBe(true);
    expect(result.output).toBe('Success. Updated the following files:\nA new/b.txt\nM a.txt\nD old.txt\n');
    expect(files).toEqual({ 'a.txt': 'one\nTWO\nthree\n', 'new/b.txt': 'hello\n' });
    expect(diffOf(result)).toEqual([
      {
        path: 'new/b.txt',
        operation: 'created',
        content: '--- /dev/null\n+++ b/new/b.txt\n@@ -0,0 +1,1 @@\n+hello\n',
        additions: 1,
        deletions: 0,
        truncated: false,
        is_empty: false,
      },
      {
        path: 'a.txt',
        operation: 'updated',
        content: '--- a/a.txt\n+++ b/a.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n',
        additions: 1,
        deletions: 1,
        truncated: false,
        is_empty: false,
      },
      {
        path: 'old.txt',
        operation: 'deleted',
        content: '--- a/old.txt\n+++ /dev/null\n@@ -1,1 +0,0 @@\n-bye\n',
        additions: 0,
        deletions: 1,
        truncated: false,
        is_empty: false,
      },
    ]);
  });

  it('inserts a pure insertion right after its @@ anchor, not at the end', async () => {
    const { files } = await run(
      { 'a.py': 'def f():\n    pass\n\ndef g():\n    pass\n' },
      patch('*** Update File: a.py', '@@ def f():', '+    """doc"""'),
    );
    expect(files['a.py']).toBe('def f():\n    """doc"""\n    pass\n\ndef g():\n    pass\n');
  });

  it('appends an unanchored pure insertion and an *** End of File chunk at the end', async () => {
    expect((await run({ a: 'x\ny\n' }, patch('*** Update File: a', '@@', '+z'))).files.a).toBe('x\ny\nz\n');
    expect((await run({ a: 'x\ny\n' }, patch('*** Update File: a', '@@ x', '+z', '*** End of File'))).files.a).toBe('x\ny\nz\n');
    expect((await run({ a: 'x\ny\nx\ny\n' }, patch('*** Update File: a', ' x', '-y', '+Y', '*** End of File'))).files.a).toBe(
      'x\ny\nx\nY\n',
    );
  });

  it('stacked @@ anchors narrow the search step by step', async () => {
    const source = 'class A:\n    def f(self):\n        return 1\nclass B:\n    def f(self):\n        return 1\n';
    const { files, result } = await run(
      { 'm.py': source },
      patch('*** Update File: m.py', '@@ class B:', '@@ def f(self):', '-        return 1', '+        return 2'),
    );
    expect(result.ok).toBe(true);
    expect(files['m.py']).toBe(source.replace(/return 1\n$/, 'return 2\n'));
  });

  it('matches sequential chunks in file order', async () => {
    const { files } = await run({ a: 'a\nb\nc\nd\ne\nf\n' }, patch('*** Update File: a', '-b', '+B', '@@', '-e', '+E'));
    expect(files.a).toBe('a\nB\nc\nd\nE\nf\n');
  });

  it.each([
    ['trailing whitespace', 'value = 1   \n', ' value = 1', 'value = 1   '],
    ['indentation', '    value = 1\n', ' value = 1', '    value = 1'],
    ['unicode punctuation', 'say “hi” – now\u00A0please\n', ' say "hi" - now please', 'say “hi” – now\u00A0please'],
  ])('falls back to matching ignoring %s and keeps the file’s own context line', async (_name, line, context, kept) => {
    const { files, result } = await run({ a: `${line}x\n` }, patch('*** Update File: a', context, '-x', '+y'));
    expect(result.ok).toBe(true);
    expect(files.a).toBe(`${kept}\ny\n`);
  });

  it('retries without a trailing blank context line', async () => {
    const { files, result } = await run({ a: 'x\ny' }, patch('*** Update File: a', ' x', '-y', '+z', ' '));
    expect(result.ok).toBe(true);
    expect(files.a).toBe('x\nz\n');
  });

  it('a move onto its own path is an update', async () => {
    const { files, result } = await run({ 'a.txt': 'x\n' }, patch('*** Update File: a.txt', '*** Move to: ./a.txt', '-x', '+y'));
    expect(result.output).toBe('Success. Updated the following files:\nM a.txt\n');
    expect(files).toEqual({ 'a.txt': 'y\n' });
    expect(diffOf(result)[0].operation).toBe('updated');
  });

  it('moves a file with its edits and mode, printing M new_path', async () => {
    const workspace = createMemoryWorkspace({ 'src/a.sh': { content: 'echo a\n', mode: 0o755 } });
    const result = await applyPatch(workspace, patch('*** Update File: src/a.sh', '*** Move to: bin/b.sh', '-echo a', '+echo b'));
    expect(result.output).toBe('Success. Updated the following files:\nM bin/b.sh\n');
    expect(workspace.snapshot()).toEqual({ 'bin/b.sh': 'echo b\n' });
    expect((await workspace.stat('bin/b.sh'))?.mode).toBe(0o755);
    expect(diffOf(result)[0]).toMatchObject({
      path: 'bin/b.sh',
      old_path: 'src/a.sh',
      operation: 'moved',
      additions: 1,
      deletions: 1,
      is_empty: false,
    });
    expect(diffOf(result)[0].content).toContain('--- a/src/a.sh\n+++ b/bin/b.sh\n');
  });

  it('a pure rename moves the bytes unchanged', async () => {
    const { files, result } = await run({ a: 'x\r\ny' }, patch('*** Update File: a', '*** Move to: b'));
    expect(files).toEqual({ b: 'x\r\ny' });
    expect(diffOf(result)[0]).toMatchObject({ operation: 'moved', is_empty: false, additions: 0, deletions: 0 });
  });

  it('refuses a move onto an existing file and an Add onto an existing file', async () => {
    const moved = await run({ a: 'x\n', b: 'keep\n' }, patch('*** Update File: a', '*** Move to: b', '-x', '+y'));
    expect(moved.result.error?.code).toBe('patch_target_exists');
    expect(moved.files).toEqual({ a: 'x\n', b: 'keep\n' });
    const added = await run({ a: 'x\n' }, patch('*** Add File: a', '+y'));
    expect(added.result.error?.code).toBe('patch_target_exists');
    expect(added.result.output).toContain('a already exists; use "*** Update File: a"');
    expect(added.files).toEqual({ a: 'x\n' });
  });

  it('Update or Delete of a missing file is patch_target_missing', async () => {
    expect((await run({}, patch('*** Update File: nope', '-x', '+y'))).result.error?.code).toBe('patch_target_missing');
    const deleted = await run({}, patch('*** Delete File: nope'));
    expect(deleted.result.error?.code).toBe('patch_target_missing');
    expect(deleted.result.output).toContain('nope does not exist');
  });

  it('refuses to delete a directory, with the reason', async () => {
    const { result, files } = await run({ 'dir/a': 'x\n' }, patch('*** Delete File: dir'));
    expect(result.ok).toBe(false);
    expect(result.output).toContain('dir is a directory; apply_patch deletes only files');
    expect(files).toEqual({ 'dir/a': 'x\n' });
  });

  it('refuses adding a file below an existing file', async () => {
    const { result } = await run({ a: 'x\n' }, patch('*** Add File: a/b', '+y'));
    expect(result.ok).toBe(false);
    expect(result.output).toContain('a is a file, so a/b cannot be created inside it');
  });

  it('applies operations in order, so later ones see earlier ones', async () => {
    const { files, result } = await run({}, patch('*** Add File: a', '+x', '*** Update File: a', '-x', '+y'));
    expect(result.ok).toBe(true);
    expect(files).toEqual({ a: 'y\n' });
    const replaced = await run({ a: 'old\n' }, patch('*** Delete File: a', '*** Add File: a', '+new'));
    expect(replaced.files).toEqual({ a: 'new\n' });
  });

  it('marks a no-op update is_empty and leaves the file untouched', async () => {
    const workspace = createMemoryWorkspace({ a: 'x\ny\n' });
    const before = (await workspace.stat('a'))!.mtimeMs;
    const result = await applyPatch(workspace, patch('*** Update File: a', '-x', '+x'));
    expect(result.ok).toBe(true);
    expect(diffOf(result)).toEqual([
      { path: 'a', operation: 'updated', content: '', additions: 0, deletions: 0, truncated: false, is_empty: true },
    ]);
    expect((await workspace.stat('a'))!.mtimeMs).toBe(before);
  });

  it('bounds a long diff to the first 96 and last 32 lines', async () => {
    const lines = Array.from({ length: 300 }, (_, i) => `+line ${i}`);
    const { result } = await run({}, patch('*** Add File: big.txt', ...lines));
    const [entry] = diffOf(result);
    expect(entry.truncated).toBe(true);
    expect(entry.additions).toBe(300);
    const shown = entry.content.trimEnd().split('\n');
    expect(shown).toHaveLength(96 + 1 + 32);
    expect(shown[96]).toBe('... 175 diff lines omitted ...');
    expect(shown.at(-1)).toBe('+line 299');
  });
});

describe('apply_patch failures', () => {
  it('reports an ambiguous chunk with candidate lines and asks for an @@ anchor', async () => {
    const { result, files } = await run({ a: 'x\ny\nz\nx\ny\n' }, patch('*** Update File: a', ' x', '-y', '+Y'));
    expect(result.error?.code).toBe('patch_ambiguous');
    expect(result.output).toContain('matches 2 places, starting at lines 1, 4');
    expect(result.output).toContain('@@');
    expect(files.a).toBe('x\ny\nz\nx\ny\n');
  });

  it('an @@ anchor resolves the ambiguity', async () => {
    const { files } = await run({ a: 'f\nx\ny\ng\nx\ny\n' }, patch('*** Update File: a', '@@ g', ' x', '-y', '+Y'));
    expect(files.a).toBe('f\nx\ny\ng\nx\nY\n');
  });

  it('shows the closest region with line numbers and the first differing line', async () => {
    const file = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const { result } = await run({ a: file }, patch('*** Update File: a', ' line 11', '-line 12', '+changed', ' line thirteen'));
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(result.output).toContain('Closest region (lines 10-14, 2 of 3 lines alike)');
    expect(result.output).toContain('      11 | line 11');
    expect(result.output).toContain('first difference: file line 13 is "line 13" where the patch (line 6) expects "line thirteen"');
  });

  it('reports every operation and chunk status so only the failures get fixed', async () => {
    const { result, files } = await run(
      { a: 'a\nb\nc\nd\n', b: 'p\nq\np\nq\n' },
      patch('*** Update File: a', '-a', '+A', '@@', '-zzz', '+Z', '*** Update File: b', ' p', '-q', '+Q', '*** Add File: c', '+new'),
    );
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(result.output).toContain('no file was changed: 2 of 3 operations failed');
    expect(result.output).toContain('chunk 1 (patch line 3): would apply at line 1');
    expect(result.output).toContain('chunk 2 (patch line 5): NOT FOUND');
    expect(result.output).toContain('chunk 1 (patch line 9): AMBIGUOUS');
    expect(result.output).toContain('*** Add File: c: would apply');
    expect(result.data?.operations).toEqual([
      { kind: 'update', path: 'a', ok: false, code: 'patch_context_not_found', chunks: ['applies', 'not_found'] },
      { kind: 'update', path: 'b', ok: false, code: 'patch_ambiguous', chunks: ['ambiguous'] },
      { kind: 'add', path: 'c', ok: true },
    ]);
    expect(files).toEqual({ a: 'a\nb\nc\nd\n', b: 'p\nq\np\nq\n' });
  });

  it('a missing anchor is reported as not found', async () => {
    const { result } = await run({ a: 'x\n' }, patch('*** Update File: a', '@@ def nothing', '-x', '+y'));
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(result.output).toContain('its @@ anchor "def nothing" was not found');
  });

  it('a parse error writes nothing and names the line', async () => {
    const { result, files } = await run({ a: 'x\n' }, '*** Begin Patch\n*** Update File: a\n-x\n+y\n');
    expect(result.error?.code).toBe('patch_parse_error');
    expect(result.data).toEqual({ line: 4 });
    expect(files).toEqual({ a: 'x\n' });
  });

  it('refuses a non-UTF-8 file untouched but can delete it', async () => {
    const bytes = new Uint8Array([0x61, 0x0a, 0xff, 0xfe, 0x0a]);
    const workspace = createMemoryWorkspace({ 'bin.dat': bytes });
    const result = await applyPatch(workspace, patch('*** Update File: bin.dat', '-a', '+b'));
    expect(result.ok).toBe(false);
    expect(result.output).toContain('bin.dat was not changed: it is not valid UTF-8 text (first invalid byte near offset 2)');
    expect(await workspace.readFile('bin.dat')).toEqual(bytes);
    const deleted = await applyPatch(workspace, patch('*** Delete File: bin.dat'));
    expect(deleted.ok).toBe(true);
    expect(diffOf(deleted)[0].content).toBe('Binary file bin.dat deleted\n');
  });
});

describe('apply_patch preservation', () => {
  it('keeps CRLF line endings', async () => {
    const { files } = await run({ a: 'one\r\ntwo\r\nthree\r\n' }, patch('*** Update File: a', ' one', '-two', '+2', '+2b'));
    expect(files.a).toBe('one\r\n2\r\n2b\r\nthree\r\n');
  });

  it('in a mixed file keeps untouched lines and gives new lines the majority ending', async () => {
    const { files } = await run({ a: 'a\r\nb\nc\r\nd\r\n' }, patch('*** Update File: a', ' a', ' b', '+new', ' c'));
    expect(files.a).toBe('a\r\nb\nnew\r\nc\r\nd\r\n');
  });

  it('keeps a UTF-8 BOM', async () => {
    const workspace = createMemoryWorkspace({ a: new Uint8Array([0xef, 0xbb, 0xbf, 0x78, 0x0a]) });
    await applyPatch(workspace, patch('*** Update File: a', '-x', '+y'));
    expect(Array.from(await workspace.readFile('a'))).toEqual([0xef, 0xbb, 0xbf, 0x79, 0x0a]);
  });

  it('keeps a missing final newline unless the last line is edited', async () => {
    expect((await run({ a: 'x\ny\nz' }, patch('*** Update File: a', '-x', '+X'))).files.a).toBe('X\ny\nz');
    expect((await run({ a: 'x\ny\nz' }, patch('*** Update File: a', ' y', '-z', '+Z'))).files.a).toBe('x\ny\nZ\n');
    expect((await run({ a: 'x\ny' }, patch('*** Update File: a', '@@', '+z'))).files.a).toBe('x\ny\nz\n');
  });

  it('keeps the mode bits of an updated file', async () => {
    const workspace = createMemoryWorkspace({ 'run.sh': { content: 'echo 1\n', mode: 0o750 } });
    await applyPatch(workspace, patch('*** Update File: run.sh', '-echo 1', '+echo 2'));
    expect((await workspace.stat('run.sh'))?.mode).toBe(0o750);
  });

  it('diff entries show a missing final newline', async () => {
    const { result } = await run({ a: 'x\ny' }, patch('*** Update File: a', '-x', '+X'));
    expect(diffOf(result)[0].content).toBe('--- a/a\n+++ b/a\n@@ -1,2 +1,2 @@\n-x\n+X\n y\n\\ No newline at end of file\n');
  });
});

describe('apply_patch workspace boundary', () => {
  it.each([
    ['/etc/passwd'],
    ['../outside.txt'],
    ['a/../../outside.txt'],
    ['bad\u0000name'],
    ['bad\u0007name'],
    ['C:\\Windows\\x.txt'],
    ['\\\\server\\share\\x.txt'],
    ['~/x.txt'],
    ['x\u0085y.txt'],
    ['x\u009b31m.txt'],
  ])('refuses %j as outside_workspace and writes nothing', async (path) => {
    const { result, files } = await run({ a: 'x\n' }, patch(`*** Add File: ${path}`, '+y', '*** Update File: a', '-x', '+y'));
    expect(result.error?.code).toBe('outside_workspace');
    expect(files).toEqual({ a: 'x\n' });
  });

  it('refuses a move destination outside the workspace', async () => {
    const { result, files } = await run({ a: 'x\n' }, patch('*** Update File: a', '*** Move to: ../b', '-x', '+y'));
    expect(result.error?.code).toBe('outside_workspace');
    expect(files).toEqual({ a: 'x\n' });
  });

  it('a context line that looks like a header never runs as a file operation', async () => {
    const { result, files } = await run(
      { 'docs/x.md': 'Example:\nold\n*** Delete File: src/main.ts\n', 'src/main.ts': 'main\n' },
      patch('*** Update File: docs/x.md', '@@', ' Example:', '-old', '+new', ' *** Delete File: src/main.ts'),
    );
    expect(result.output).toBe('Success. Updated the following files:\nM docs/x.md\n');
    expect(files).toEqual({ 'docs/x.md': 'Example:\nnew\n*** Delete File: src/main.ts\n', 'src/main.ts': 'main\n' });
    const moved = await run({ 'a.md': 'old\n*** Move to: b.md\n' }, patch('*** Update File: a.md', '-old', '+new', ' *** Move to: b.md'));
    expect(moved.files).toEqual({ 'a.md': 'new\n*** Move to: b.md\n' });
  });

  it('accepts an absolute path inside the workspace', async () => {
    const { files, result } = await run({ a: 'x\n' }, patch('*** Update File: /workspace/a', '-x', '+y'));
    expect(result.output).toContain('M a');
    expect(files).toEqual({ a: 'y\n' });
  });

  it('refuses paths through a symlink leading outside', async () => {
    const workspace = createMemoryWorkspace({ a: 'x\n' });
    workspace.symlink('out', '/etc');
    workspace.symlink('link.txt', '/etc/hosts');
    for (const text of [
      patch('*** Add File: out/x', '+y'),
      patch('*** Update File: link.txt', '-x', '+y'),
      patch('*** Delete File: out/hosts'),
    ]) {
      const result = await applyPatch(workspace, text);
      expect(result.error?.code).toBe('outside_workspace');
    }
    expect(workspace.snapshot()).toEqual({ a: 'x\n' });
  });

  it('edits a symlink inside the workspace as its target, keeping the link', async () => {
    const workspace = createMemoryWorkspace({ 'real/t.txt': 'x\n' });
    workspace.symlink('link.txt', 'real/t.txt');
    const result = await applyPatch(workspace, patch('*** Update File: link.txt', '-x', '+y'));
    expect(result.output).toContain('M link.txt');
    expect(workspace.snapshot()).toEqual({ 'real/t.txt': 'y\n' });
    expect((await workspace.lstat('link.txt'))?.kind).toBe('symlink');
  });
});

describe('apply_patch on a symlink the same patch deletes', () => {
  function linked() {
    const workspace = createMemoryWorkspace({ 'real.txt': 'precious\n', 'src.txt': 'moved\n' });
    workspace.symlink('link.txt', 'real.txt');
    return workspace;
  }

  it('Delete File of a link then Add File at its path replaces the link with a regular file, leaving the target alone', async () => {
    const workspace = linked();
    const result = await applyPatch(workspace, patch('*** Delete File: link.txt', '*** Add File: link.txt', '+new'), {
      locks: new PathLocks(),
    });
    expect(result.output).toBe('Success. Updated the following files:\nA link.txt\nD link.txt\n');
    expect(await workspace.lstat('link.txt')).toMatchObject({ kind: 'file' });
    expect(workspace.snapshot()).toEqual({ 'real.txt': 'precious\n', 'link.txt': 'new\n', 'src.txt': 'moved\n' });
  });

  it('a Move onto a link deleted earlier in the patch replaces the link, leaving the target alone', async () => {
    const workspace = linked();
    const result = await applyPatch(
      workspace,
      patch('*** Delete File: link.txt', '*** Update File: src.txt', '*** Move to: link.txt', '-moved', '+moved here'),
      {
        locks: new PathLocks(),
      },
    );
    expect(result.ok).toBe(true);
    expect(await workspace.lstat('link.txt')).toMatchObject({ kind: 'file' });
    expect(workspace.snapshot()).toEqual({ 'real.txt': 'precious\n', 'link.txt': 'moved here\n' });
  });

  it('a move of the link target onto the deleted link itself', async () => {
    const workspace = linked();
    const result = await applyPatch(workspace, patch('*** Delete File: link.txt', '*** Update File: real.txt', '*** Move to: link.txt'), {
      locks: new PathLocks(),
    });
    expect(result.ok).toBe(true);
    expect(await workspace.lstat('link.txt')).toMatchObject({ kind: 'file' });
    expect(workspace.snapshot()).toEqual({ 'link.txt': 'precious\n', 'src.txt': 'moved\n' });
  });

  it('re-creates removed links on rollback when the replacing write fails', async () => {
    const workspace = linked();
    workspace.symlink('other-link.txt', 'src.txt');
    const failing: Workspace = {
      ...workspace,
      writeFile: async (path, data, options) => {
        if (path === 'link.txt') throw new Error('ENOSPC: no space left on device');
        return workspace.writeFile(path, data, options);
      },
    };
    const result = await applyPatch(
      failing,
      patch('*** Delete File: other-link.txt', '*** Delete File: link.txt', '*** Add File: link.txt', '+new'),
      {
        locks: new PathLocks(),
      },
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('every file already written was restored, so nothing changed');
    expect(await workspace.readLink!('link.txt')).toBe('real.txt');
    expect(await workspace.readLink!('other-link.txt')).toBe('src.txt');
    expect(workspace.snapshot()).toEqual({ 'real.txt': 'precious\n', 'src.txt': 'moved\n' });
  });

  it('names the link to recreate by hand when the workspace cannot create links', async () => {
    const workspace = linked();
    const failing: Workspace = {
      ...workspace,
      createSymlink: undefined,
      writeFile: async () => {
        throw new Error('ENOSPC: no space left on device');
      },
    };
    const result = await applyPatch(failing, patch('*** Delete File: link.txt', '*** Add File: link.txt', '+new'), {
      locks: new PathLocks(),
    });
    expect(result.output).toContain('restoring failed for link.txt (a symlink to real.txt; recreate it by hand)');
    expect(workspace.snapshot()['real.txt']).toBe('precious\n');
  });
});

describe('apply_patch atomicity and concurrency', () => {
  function failingWorkspace(inner: Workspace, failOn: string): Workspace {
    return {
      ...inner,
      lstat: (path) => inner.lstat(path),
      stat: (path) => inner.stat(path),
      realpath: (path) => inner.realpath(path),
      readFile: (path) => inner.readFile(path),
      readdir: (path) => inner.readdir(path),
      remove: async (path) => {
        if (path === failOn) throw new Error('EACCES: permission denied');
        return inner.remove(path);
      },
      writeFile: async (path, data, options) => {
        if (path === failOn) throw new Error('ENOSPC: no space left on device');
        return inner.writeFile(path, data, options);
      },
    };
  }

  it('restores every file already written when a later write fails', async () => {
    const inner = createMemoryWorkspace({ a: 'a\n', b: 'b\n', c: 'c\n', gone: 'g\n' });
    const workspace = failingWorkspace(inner, 'c');
    const result = await applyPatch(
      workspace,
      patch('*** Update File: a', '-a', '+A', '*** Add File: new', '+n', '*** Update File: c', '-c', '+C', '*** Delete File: gone'),
    );
    expect(result.ok).toBe(false);
    expect(result.output).toContain('writing c failed (ENOSPC: no space left on device); every file already written was restored');
    expect(inner.snapshot()).toEqual({ a: 'a\n', b: 'b\n', c: 'c\n', gone: 'g\n' });
  });

  it('removes the folders a rolled-back write created, but not folders that hold other files', async () => {
    const inner = createMemoryWorkspace({ 'keep/k': 'k\n', z: 'z\n' });
    const workspace = { ...failingWorkspace(inner, 'z'), removeEmptyDirectory: (path: string) => inner.removeEmptyDirectory!(path) };
    const result = await applyPatch(
      workspace,
      patch('*** Add File: fresh/deep/x', '+x', '*** Add File: keep/y', '+y', '*** Update File: z', '-z', '+Z'),
    );
    expect(result.ok).toBe(false);
    expect(await inner.stat('fresh')).toBeUndefined();
    expect(await inner.stat('keep')).toMatchObject({ kind: 'directory' });
    expect(inner.snapshot()).toEqual({ 'keep/k': 'k\n', z: 'z\n' });
  });

  it('restores a deleted file when a later removal fails', async () => {
    const inner = createMemoryWorkspace({ first: '1\n', second: '2\n' });
    const result = await applyPatch(failingWorkspace(inner, 'second'), patch('*** Delete File: first', '*** Delete File: second'));
    expect(result.ok).toBe(false);
    expect(inner.snapshot()).toEqual({ first: '1\n', second: '2\n' });
  });

  it('restores writes when a removal fails', async () => {
    const inner = createMemoryWorkspace({ a: 'a\n', gone: 'g\n' });
    const result = await applyPatch(failingWorkspace(inner, 'gone'), patch('*** Update File: a', '-a', '+A', '*** Delete File: gone'));
    expect(result.ok).toBe(false);
    expect(inner.snapshot()).toEqual({ a: 'a\n', gone: 'g\n' });
  });

  it('serializes concurrent patches on the same file', async () => {
    const workspace = createMemoryWorkspace({ counter: '0\n' });
    const locks = new PathLocks();
    // Each patch appends one line after the last line it saw; interleaving would make two patches see the same state.
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => applyPatch(workspace, patch('*** Update File: counter', '@@', `+${i + 1}`), { locks })),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    expect(workspace.snapshot().counter.split('\n').filter(Boolean)).toHaveLength(11);
    expect(locks.size).toBe(0);
  });

  /** A workspace whose symlink `dir` is re-pointed (by "another process") each time `dir/f.txt` is resolved. */
  function repointingWorkspace(targets: readonly string[], events: string[] = []) {
    const inner = createMemoryWorkspace({ 'a/f.txt': 'x\n', 'b/f.txt': 'x\n', 'c/f.txt': 'x\n', 'd/f.txt': 'x\n' });
    inner.symlink('dir', targets[0]);
    let resolutions = 0;
    const workspace: Workspace = {
      ...inner,
      realpath: async (path) => {
        if (path === 'dir/f.txt') inner.symlink('dir', targets[Math.min(resolutions++, targets.length - 1)]);
        return inner.realpath(path);
      },
      writeFile: async (path, data, options) => {
        events.push(`write ${path}`);
        return inner.writeFile(path, data, options);
      },
    };
    return { inner, workspace };
  }
  const lockKey = (key: string) => `/workspace\u0000${key}`;

  it('never commits with keys it does not hold: paths that keep changing make the patch fail unwritten', async () => {
    const events: string[] = [];
    const { inner, workspace } = repointingWorkspace(['a', 'b', 'c', 'd'], events);
    const locks = new PathLocks();
    // Another patch is working on d/f.txt and holds its lock the whole time.
    const releaseOther = await locks.acquire([lockKey('d/f.txt')]);
    const result = await applyPatch(workspace, patch('*** Update File: dir/f.txt', '-x', '+y'), { locks });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('tool_failed');
    expect(result.output).toContain('kept resolving to different paths');
    expect(events).toEqual([]);
    expect(inner.snapshot()).toEqual({ 'a/f.txt': 'x\n', 'b/f.txt': 'x\n', 'c/f.txt': 'x\n', 'd/f.txt': 'x\n' });
    releaseOther();
    expect(locks.size).toBe(0);
  });

  it('when a path changes after locking, it locks the new key too and waits for its holder before writing', async () => {
    const events: string[] = [];
    const { inner, workspace } = repointingWorkspace(['a', 'b'], events);
    let onUnionRequested!: () => void;
    const unionRequested = new Promise<void>((resolve) => (onUnionRequested = resolve));
    class WatchedLocks extends PathLocks {
      override acquire(keys: Iterable<string>) {
        const list = [...keys];
        if (list.includes(lockKey('a/f.txt')) && list.includes(lockKey('b/f.txt'))) onUnionRequested();
        return super.acquire(list);
      }
    }
    const locks = new WatchedLocks();
    const releaseOther = await locks.acquire([lockKey('b/f.txt')]);
    const pending = applyPatch(workspace, patch('*** Update File: dir/f.txt', '-x', '+y'), { locks });
    await unionRequested;
    events.push('other patch done');
    releaseOther();
    const result = await pending;
    expect(result.ok).toBe(true);
    expect(events).toEqual(['other patch done', 'write b/f.txt']);
    expect(inner.snapshot()['b/f.txt']).toBe('y\n');
    expect(locks.size).toBe(0);
  });

  it('two concurrent Adds of the same path: exactly one wins', async () => {
    const workspace = createMemoryWorkspace({});
    const locks = new PathLocks();
    const [first, second] = await Promise.all([
      applyPatch(workspace, patch('*** Add File: x', '+one'), { locks }),
      applyPatch(workspace, patch('*** Add File: x', '+two'), { locks }),
    ]);
    expect([first.ok, second.ok].sort()).toEqual([false, true]);
    expect((first.ok ? second : first).error?.code).toBe('patch_target_exists');
  });
});
