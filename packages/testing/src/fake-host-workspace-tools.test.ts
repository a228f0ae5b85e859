// apply_patch and code_search run the real engines over the fake host's in-memory files.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createToolHost } from 'toolhost';
import { createFakeToolHost } from './create-fake-tool-host.js';

const update = (path: string, from: string, to: string) => `*** Begin Patch\n*** Update File: ${path}\n@@\n-${from}\n+${to}\n*** End Patch`;

describe('createFakeToolHost: apply_patch over the in-memory workspace', () => {
  it('updates, adds and deletes files; host.files() shows the result', async () => {
    const host = createFakeToolHost({ files: { 'greeting.txt': 'hello world\n', 'old.txt': 'bye\n' } });
    const result = await host.call('apply_patch', {
      input:
        '*** Begin Patch\n*** Update File: greeting.txt\n@@\n-hello world\n+hello toolhost\n*** Add File: docs/new.md\n+# New\n*** Delete File: old.txt\n*** End Patch',
    });
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.output).toBe('Success. Updated the following files:\nA docs/new.md\nM greeting.txt\nD old.txt\n');
    expect(host.files()).toEqual({ 'docs/new.md': '# New\n', 'greeting.txt': 'hello toolhost\n' });
  });

  it('accepts the freeform form', async () => {
    const host = createFakeToolHost({ files: { 'a.txt': 'one\n' } });
    const result = await host.call('apply_patch', update('a.txt', 'one', 'two'));
    expect(result.ok).toBe(true);
    expect(host.files()).toEqual({ 'a.txt': 'two\n' });
  });

  it('writes nothing when a patch fails', async () => {
    const host = createFakeToolHost({ files: { 'a.txt': 'one\n', 'b.txt': 'bee\n' } });
    const result = await host.call('apply_patch', {
      input: '*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** Update File: b.txt\n@@\n-not there\n+x\n*** End Patch',
    });
    expect(result.ok).toBe(false);
    expect(result.error?.code).toBe('patch_context_not_found');
    expect(host.files()).toEqual({ 'a.txt': 'one\n', 'b.txt': 'bee\n' });
  });

  it('asks for a verification after four edits; a scripted passing test run clears it', async () => {
    const host = createFakeToolHost({ files: { 'a.txt': '0\n' }, commands: [{ match: 'npm test', output: 'ok\n' }] });
    for (let i = 0; i < 4; i++)
      expect((await host.call('apply_patch', { input: update('a.txt', String(i), String(i + 1)) })).ok).toBe(true);
    const blocked = await host.call('apply_patch', { input: update('a.txt', '4', '5') });
    expect(blocked.error?.code).toBe('verification_required');
    expect((await host.call('exec_command', { cmd: 'npm test' })).data?.exit_code).toBe(0);
    expect((await host.call('apply_patch', { input: update('a.txt', '4', '5') })).ok).toBe(true);
    expect(host.files()['a.txt']).toBe('5\n');
  });
});

describe('createFakeToolHost: apply_patch sent through exec_command', () => {
  it('applies the heredoc like the real host, even in strict mode with nothing scripted', async () => {
    const cmd = `cd src && apply_patch <<'EOF'\n${update('a.txt', 'one', 'two')}\nEOF`;
    const fake = createFakeToolHost({ strict: true, files: { 'src/a.txt': 'one\n' } });
    const folder = mkdtempSync(join(tmpdir(), 'toolhost-fake-patch-'));
    mkdirSync(join(folder, 'src'));
    writeFileSync(join(folder, 'src/a.txt'), 'one\n');
    const real = createToolHost({ workspace: folder });
    try {
      const [fakeResult, realResult] = [await fake.call('exec_command', { cmd }), await real.call('exec_command', { cmd })];
      expect(fakeResult).toEqual(realResult);
      expect(fakeResult.output).toBe(
        'Success. Updated the following files:\nM src/a.txt\nNote: this apply_patch command went to the apply_patch tool, not to a shell. Call the apply_patch tool directly instead of exec_command.',
      );
      expect(fake.files()).toEqual({ 'src/a.txt': 'two\n' });
      expect(readFileSync(join(folder, 'src/a.txt'), 'utf8')).toBe('two\n');
    } finally {
      await real.close();
      await fake.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('createFakeToolHost: code_search over the in-memory workspace', () => {
  it('finds a definition and its usages in memory files', async () => {
    const host = createFakeToolHost({
      profile: 'advanced',
      files: {
        'src/greet.ts': 'export function greet(name: string) {\n  return `hi ${name}`;\n}\n',
        'src/main.ts': "import { greet } from './greet.js';\nconsole.log(greet('x'));\n",
      },
    });
    const result = await host.call('code_search', { query: 'greet', result_types: ['definition'] });
    expect(result.error).toBeUndefined();
    expect(result.ok).toBe(true);
    expect(result.output).toContain('src/greet.ts');
    expect(result.output).not.toContain('src/main.ts');
    const usages = await host.call('code_search', { query: 'greet', result_types: ['usage'] });
    expect(usages.output).toContain('src/main.ts');
  });
});
