import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, setTracingDisabled } from '@openai/agents-core';
import { Manifest, SandboxAgent, type SandboxClient, type SandboxSession } from '@openai/agents-core/sandbox';
import { createToolHostSandboxClient, imageMediaType, MAX_VIEW_IMAGE_BYTES, type ToolHostSandboxSession } from './index.js';
import { applyPatchCall, functionCall, scriptedModel } from './__fixtures__/scripted-model.js';
import { isProcessAlive } from '../../../test/helpers/proc-scan.js';

setTracingDisabled(true);

const outside = mkdtempSync(join(tmpdir(), 'toolhost-sandbox-outside-'));
afterAll(() => rmSync(outside, { recursive: true, force: true }));

describe('createToolHostSandboxClient', () => {
  it('implements the Agents SDK SandboxClient and its sessions the SandboxSession interface', () => {
    const client: SandboxClient = createToolHostSandboxClient();
    const check = (session: ToolHostSandboxSession): SandboxSession => session;
    expect(client.backendId).toBe('toolhost');
    expect(typeof check).toBe('function');
  });

  it('runs a scripted sandbox agent: apply_patch creates a file, exec_command runs it, the manifest file is there', async () => {
    const client = createToolHostSandboxClient();
    let session: ToolHostSandboxSession | undefined;
    const wrapped: SandboxClient = {
      backendId: client.backendId,
      create: async (...args: Parameters<typeof client.create>) => (session = await client.create(...args)),
      delete: (state) => client.delete(state as never),
    };
    const { model, answers, tools, instructions } = scriptedModel(
      [
        applyPatchCall('call_1', { type: 'create_file', path: 'hello.js', diff: "+console.log('hello from ' + process.env.GREETER);\n" }),
        functionCall('call_2', 'exec_command', { cmd: 'node hello.js && cat notes/readme.txt', yield_time_ms: 10_000 }),
      ],
      'hello.js prints its greeting.',
    );
    const agent = new SandboxAgent({
      name: 'sandboxed',
      instructions: 'Write hello.js and run it.',
      model,
      defaultManifest: new Manifest({
        entries: { notes: { type: 'dir', children: { 'readme.txt': { type: 'file', content: 'from the manifest\n' } } } },
        environment: { GREETER: 'toolhost' },
      }),
    });
    const result = await run(agent, 'Make hello.js print a greeting.', { sandbox: { client: wrapped }, maxTurns: 6 });
    expect(result.finalOutput).toBe('hello.js prints its greeting.');
    expect(tools[0]).toEqual(expect.arrayContaining(['apply_patch', 'exec_command', 'write_stdin']));
    expect(answers[0]).toEqual({
      type: 'apply_patch_call_output',
      status: 'completed',
      text: expect.stringContaining('Success. Updated the following files:\nA hello.js'),
    });
    expect(answers[1]?.type).toBe('function_call_result');
    expect(answers[1]?.text).toMatch(
      /^Chunk ID: [0-9a-f]{6}\nWall time: [\d.]+ seconds\nProcess exited with code 0\nOriginal token count: \d+\nOutput:\nhello from toolhost\nfrom the manifest\n$/,
    );
    expect(session).toBeDefined();
    const root = session!.state.workspaceRoot;
    // The model is told the real root of the workspace, where its commands run.
    expect(instructions[0]).toContain(root);
    expect(session!.state.manifest.root).toBe(root);
    expect(session!.state.environmentKind).toBe('local');
    // The runner cleaned up the session it created: the temporary workspace is gone.
    expect(existsSync(root)).toBe(false);
  });

  it('answers model mistakes as values: a hostile path is refused, a failed patch writes nothing, a bad workdir is an error', async () => {
    const client = createToolHostSandboxClient();
    const session = await client.create({ manifest: { entries: { 'app.txt': { type: 'file', content: 'one\ntwo\n' } } } });
    try {
      const root = session.state.workspaceRoot;
      const editor = session.createEditor();
      const escape = await editor.createFile({ type: 'create_file', path: '../escaped.txt', diff: '+nope\n' });
      expect(escape.status).toBe('failed');
      expect(escape.output).toMatch(/outside|escapes/);
      expect(existsSync(join(root, '..', 'escaped.txt'))).toBe(false);
      const stale = await editor.updateFile({ type: 'update_file', path: 'app.txt', diff: '@@\n-three\n+four\n' });
      expect(stale.status).toBe('failed');
      expect(readFileSync(join(root, 'app.txt'), 'utf8')).toBe('one\ntwo\n');
      const updated = await editor.updateFile({ type: 'update_file', path: 'app.txt', diff: '@@\n one\n-two\n+2\n' });
      expect(updated).toEqual({ status: 'completed', output: expect.stringContaining('M app.txt') });
      expect(readFileSync(join(root, 'app.txt'), 'utf8')).toBe('one\n2\n');
      const refused = await session.execCommand({ cmd: 'pwd', workdir: outside });
      expect(refused).toMatch(/^Error \[outside_workspace\]/);
      const exec = await session.exec({ cmd: 'printf "%s" "$PWD"; exit 3' });
      expect(exec).toMatchObject({ output: root, stdout: root, exitCode: 3 });
    } finally {
      await session.close();
    }
  });

  it('applies an apply_patch heredoc or argument sent as a command and refuses a bare patch without running it', async () => {
    const client = createToolHostSandboxClient();
    // `touch` is the first entry: a shell given `*** Begin Patch` would run `touch x.txt Begin Patch`.
    const session = await client.create({
      manifest: { entries: { touch: { type: 'file', content: '' }, 'x.txt': { type: 'file', content: 'one\n' } } },
    });
    try {
      const root = session.state.workspaceRoot;
      const update = (from: string, to: string) => `*** Begin Patch\n*** Update File: x.txt\n@@\n-${from}\n+${to}\n*** End Patch`;
      const heredoc = await session.exec({ cmd: `apply_patch <<'EOF'\n${update('one', 'two')}\nEOF` });
      expect(heredoc).toMatchObject({ exitCode: 0, output: expect.stringMatching(/^Success\. Updated the following files:\nM x\.txt\n/) });
      expect(await session.execCommand({ cmd: `apply_patch '${update('two', 'three')}'` })).toMatch(/^Success\./);
      expect(readFileSync(join(root, 'x.txt'), 'utf8')).toBe('three\n');
      const bare = await session.exec({ cmd: update('three', 'never') });
      expect(bare).toMatchObject({
        exitCode: null,
        output:
          'Error [invalid_arguments]: patch detected without explicit call to apply_patch, so nothing was run. Call the apply_patch tool with this patch instead of sending the patch to exec_command.',
      });
      expect(existsSync(join(root, 'Begin'))).toBe(false);
      expect(readFileSync(join(root, 'x.txt'), 'utf8')).toBe('three\n');
    } finally {
      await session.close();
    }
  });

  it('reads, lists and probes files inside the workspace only, symlinks included', async () => {
    const client = createToolHostSandboxClient();
    const session = await client.create({
      manifest: { entries: { 'src/a.txt': { type: 'file', content: 'alpha' }, empty: { type: 'dir' } } },
    });
    try {
      const root = session.state.workspaceRoot;
      writeFileSync(join(outside, 'secret.txt'), 'secret');
      symlinkSync(outside, join(root, 'link'));
      expect(new TextDecoder().decode(await session.readFile({ path: 'src/a.txt' }))).toBe('alpha');
      expect(new TextDecoder().decode(await session.readFile({ path: `${root}/src/a.txt`, maxBytes: 2 }))).toBe('al');
      expect(await session.listDir({ path: '.' })).toEqual([
        { name: 'empty', path: 'empty', type: 'dir' },
        { name: 'link', path: 'link', type: 'other' },
        { name: 'src', path: 'src', type: 'dir' },
      ]);
      expect(await session.pathExists('src/a.txt')).toBe(true);
      expect(await session.pathExists('src/b.txt')).toBe(false);
      expect(await session.directoryExists('empty')).toBe(true);
      expect(await session.directoryExists('src/a.txt')).toBe(false);
      await expect(session.readFile({ path: 'link/secret.txt' })).rejects.toMatchObject({
        name: 'ToolHostError',
        code: 'outside_workspace',
      });
      await expect(session.readFile({ path: '../x' })).rejects.toMatchObject({ code: 'outside_workspace' });
      await expect(session.pathExists(`${outside}/secret.txt`)).rejects.toMatchObject({ code: 'outside_workspace' });
      await expect(session.readFile({ path: 'src' })).rejects.toMatchObject({ code: 'not_found' });
      await expect(session.readFile({ path: 'src/a.txt', runAs: 'root' })).rejects.toMatchObject({ code: 'unsupported' });
    } finally {
      await session.close();
    }
  });

  it('views PNG, JPEG, GIF, WebP and BMP images by signature, and refuses other files, folders, big files and escapes', async () => {
    const client = createToolHostSandboxClient();
    const session = await client.create({
      manifest: { entries: { 'notes.txt': { type: 'file', content: 'not an image' }, pics: { type: 'dir' } } },
    });
    try {
      const root = session.state.workspaceRoot;
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
      writeFileSync(join(root, 'pics/shot.png'), png);
      writeFileSync(join(root, 'pics/big.png'), Buffer.concat([png, Buffer.alloc(MAX_VIEW_IMAGE_BYTES)]));
      writeFileSync(join(outside, 'outside.png'), png);
      const viewed = await session.viewImage({ path: 'pics/shot.png' });
      expect(viewed.type).toBe('image');
      expect(viewed.image.mediaType).toBe('image/png');
      expect(Buffer.from(viewed.image.data).equals(png)).toBe(true);
      const signatures: Array<[number[] | string, string | undefined]> = [
        [[0xff, 0xd8, 0xff, 0xe0], 'image/jpeg'],
        ['GIF89a', 'image/gif'],
        ['GIF87a', 'image/gif'],
        ['RIFF\0\0\0\0WEBPVP8 ', 'image/webp'],
        ['BM', 'image/bmp'],
        ['plain text', undefined],
      ];
      for (const [signature, mediaType] of signatures)
        expect(imageMediaType(typeof signature === 'string' ? Buffer.from(signature, 'latin1') : Uint8Array.from(signature))).toBe(
          mediaType,
        );
      await expect(session.viewImage({ path: 'notes.txt' })).rejects.toMatchObject({
        code: 'unsupported',
        message: 'Unsupported image format for view_image: notes.txt',
      });
      await expect(session.viewImage({ path: 'pics' })).rejects.toMatchObject({
        code: 'not_found',
        message: 'Image path is not a file: pics',
      });
      await expect(session.viewImage({ path: 'pics/none.png' })).rejects.toMatchObject({
        code: 'not_found',
        message: 'Image file not found: pics/none.png',
      });
      await expect(session.viewImage({ path: 'pics/big.png' })).rejects.toMatchObject({
        code: 'unsupported',
        message: 'Image file exceeds the 10 MB limit: pics/big.png',
      });
      await expect(session.viewImage({ path: `${outside}/outside.png` })).rejects.toMatchObject({ code: 'outside_workspace' });
      await expect(session.viewImage({ path: 'pics/shot.png', runAs: 'root' })).rejects.toMatchObject({ code: 'unsupported' });
    } finally {
      await session.close();
    }
  });

  it('materializes file and folder entries after creation and refuses other kinds before writing anything', async () => {
    const client = createToolHostSandboxClient();
    const session = await client.create();
    try {
      const root = session.state.workspaceRoot;
      await session.materializeEntry({
        path: 'docs',
        entry: { type: 'dir', children: { 'a.md': { type: 'file', content: new TextEncoder().encode('# A\n') } } },
      });
      expect(readFileSync(join(root, 'docs/a.md'), 'utf8')).toBe('# A\n');
      expect(Object.keys(session.state.manifest.entries)).toEqual(['docs']);
      await session.applyManifest(new Manifest({ entries: { 'b.txt': { type: 'file', content: 'b' } } }));
      expect(readFileSync(join(root, 'b.txt'), 'utf8')).toBe('b');
      const mixed = new Manifest({
        entries: { 'c.txt': { type: 'file', content: 'c' }, repo: { type: 'git_repo', repo: 'openai/openai-agents-js' } },
      });
      await expect(session.applyManifest(mixed)).rejects.toMatchObject({
        code: 'unsupported',
        message: expect.stringContaining('"git_repo"'),
      });
      expect(existsSync(join(root, 'c.txt'))).toBe(false);
      await expect(session.materializeEntry({ path: '../up.txt', entry: { type: 'file', content: 'x' } })).rejects.toMatchObject({
        code: 'outside_workspace',
      });
      await expect(
        session.materializeEntry({ path: 'p.txt', entry: { type: 'file', content: 'x', permissions: 0o600 } }),
      ).rejects.toMatchObject({ code: 'unsupported' });
      await expect(session.applyManifest(new Manifest({ environment: { LATE: '1' } }))).rejects.toMatchObject({ code: 'unsupported' });
    } finally {
      await session.close();
    }
  });

  it('refuses an unsupported manifest or a snapshot at create() and leaves no temporary folder behind', async () => {
    const client = createToolHostSandboxClient();
    const before = new Set(await listTemporaryWorkspaces());
    await expect(client.create({ manifest: { entries: { src: { type: 'local_dir', src: outside } } } })).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('"local_dir"'),
    });
    await expect(client.create({ snapshot: { type: 'local' } as never })).rejects.toMatchObject({ code: 'unsupported' });
    expect((await listTemporaryWorkspaces()).filter((name) => !before.has(name))).toEqual([]);
  });

  it('close() kills running commands and their children, and is idempotent; delete(state) closes the live session', async () => {
    const client = createToolHostSandboxClient();
    const session = await client.create();
    const started = await session.exec({ cmd: 'sleep 300 & echo "child $!"; exec sleep 301', yieldTimeMs: 300 });
    expect(started.sessionId).toBeTypeOf('number');
    const child = Number(/child (\d+)/.exec(started.output)?.[1]);
    expect(isProcessAlive(child)).toBe(true);
    const polled = await session.writeStdin({ sessionId: started.sessionId!, chars: '', yieldTimeMs: 250 });
    expect(polled).toContain(`Process running with session ID ${started.sessionId}`);
    await client.delete(session.state);
    expect(await session.running()).toBe(false);
    expect(isProcessAlive(child)).toBe(false);
    expect(existsSync(session.state.workspaceRoot)).toBe(false);
    await session.close();
    await session.shutdown();
  });
});

async function listTemporaryWorkspaces(): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  return (await readdir(tmpdir())).filter((name) => name.startsWith('toolhost-sandbox-') && !outside.endsWith(name));
}
