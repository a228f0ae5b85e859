import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeToolHost } from '@toolhost/testing';
import { createToolHost, type CatalogEntry, type ToolHost } from 'toolhost';
import { answerToolUses, numberLines, toAnthropicTools, type AnthropicToolResultBlock } from './index.js';

const here = dirname(fileURLToPath(import.meta.url));
const linux = { platform: 'linux', env: {} };
const catalog: CatalogEntry[] = [
  {
    name: 'github_create_issue',
    description: 'Create a GitHub issue in a repository.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
    handler: (args) => `Created issue "${String(args.title)}"`,
  },
];

const editor = (id: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name: 'str_replace_based_edit_tool', input });
const text = (result: AnthropicToolResultBlock) => (typeof result.content === 'string' ? result.content : '');

describe('toAnthropicTools native', () => {
  it('pins bash and the text editor in place of their tools, and deferred catalog tools with defer_loading', async () => {
    const host = createFakeToolHost({ profile: 'advanced', shellProfile: 'unix_like', environment: linux, catalog });
    const tools = toAnthropicTools(host, { native: true, deferLoading: true, cacheControl: true });
    expect(tools.map((tool) => tool.name)).toEqual([
      'bash',
      'str_replace_based_edit_tool',
      'search_tools',
      'code_search',
      'github_create_issue',
    ]);
    await expect(JSON.stringify([tools[0], tools[1], tools[4]], null, 2) + '\n').toMatchFileSnapshot('./__pins__/native.tools.json');
    expect(tools[3].cache_control).toEqual({ type: 'ephemeral' });
    expect(tools[4]).not.toHaveProperty('cache_control');
  });

  it('answers search_tools with tool_reference blocks and makes the found tool callable', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const [found] = await answerToolUses([{ type: 'tool_use', id: 's', name: 'search_tools', input: { query: 'github issue' } }], host, {
      toolReferences: true,
    });
    expect(found.content).toEqual([
      { type: 'text', text: expect.stringContaining('github_create_issue') },
      { type: 'tool_reference', tool_name: 'github_create_issue' },
    ]);
    const [created] = await answerToolUses(
      [{ type: 'tool_use', id: 'c', name: 'github_create_issue', input: { title: 'Deferred' } }],
      host,
    );
    expect(created).toEqual({ type: 'tool_result', tool_use_id: 'c', content: 'Created issue "Deferred"' });
    expect(toAnthropicTools(host, { deferLoading: true }).filter((tool) => 'defer_loading' in tool)).toEqual([]);
  });

  it('references no weak match search_tools lists without loading it', async () => {
    const host = createFakeToolHost({ environment: linux, catalog });
    const [found] = await answerToolUses([{ type: 'tool_use', id: 's', name: 'search_tools', input: { query: 'githb isue' } }], host, {
      toolReferences: true,
    });
    expect(found.content).toBe(
      'No tool matched "githb isue". To search again, name the action and the service, e.g. "create jira issue".\n\n' +
        'Weak matches (not loaded; search the exact name to load one):\ngithub_create_issue: Create a GitHub issue in a repository.',
    );
    expect(
      (await answerToolUses([{ type: 'tool_use', id: 'c', name: 'github_create_issue', input: { title: 'x' } }], host))[0].is_error,
    ).toBe(true);
  });
});

describe('str_replace_based_edit_tool', () => {
  it('views files with cat -n numbering and ranges, and folders two levels deep', async () => {
    const host = createFakeToolHost({
      environment: linux,
      files: { 'src/a.ts': 'one\ntwo\nthree\n', 'src/deep/b.ts': 'x', '.hidden': 'h', 'top.md': '' },
    });
    const results = await answerToolUses(
      [
        editor('v1', { command: 'view', path: 'src/a.ts' }),
        editor('v2', { command: 'view', path: 'src/a.ts', view_range: [2, -1] }),
        editor('v3', { command: 'view', path: 'src/a.ts', view_range: [3, 9] }),
        editor('v4', { command: 'view', path: '.' }),
        editor('v5', { command: 'view', path: '/etc/passwd' }),
        editor('v6', { command: 'view', path: 'nope.ts' }),
        editor('v7', { command: 'view', path: 'top.md' }),
      ],
      host,
    );
    // Reference: computer-use-demo/computer_use_demo/tools/edit.py view(): LF split, so a final line break shows line 4 empty.
    expect(results.map(text)).toEqual([
      "Here's the result of running `cat -n` on src/a.ts:\n     1\tone\n     2\ttwo\n     3\tthree\n     4\t\n",
      "Here's the result of running `cat -n` on src/a.ts:\n     2\ttwo\n     3\tthree\n     4\t\n",
      'Error [invalid_arguments]: Invalid `view_range`: [3, 9]. Its second element `9` should be smaller than the number of lines in the file: `4`',
      "Here's the files and directories up to 2 levels deep in ., excluding hidden items and node_modules:\n.\n./src\n./src/a.ts\n./src/deep\n./top.md\n\n",
      'Error [outside_workspace]: path "/etc/passwd" is outside the workspace /workspace',
      'Error [tool_failed]: The path nope.ts does not exist. Please provide a valid path.',
      "Here's the result of running `cat -n` on top.md:\n     1\t\n",
    ]);
    expect(results.map((result) => result.is_error ?? false)).toEqual([false, false, true, false, true, true, false]);
  });

  it('budgets a large view like every tool output', async () => {
    const big = Array.from({ length: 4000 }, (_, index) => `line ${index} of a long generated file`).join('\n');
    const host = createFakeToolHost({ environment: linux, files: { 'big.txt': big } });
    const [result] = await answerToolUses([editor('b', { command: 'view', path: 'big.txt' })], host, {
      textEditor: { maxOutputTokens: 200 },
    });
    expect(text(result)).toContain('     1\tline 0 of a long generated file');
    expect(text(result)).toContain('  4000\tline 3999 of a long generated file');
    expect(text(result)).toMatch(/tokens truncated|omitted|left out/);
    expect(text(result).length).toBeLessThan(2000);
  });

  it('replaces exactly one match, keeping CRLF and the BOM, and names the candidates otherwise', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'win.txt': '\ufeffalpha\r\nbeta gamma\r\ndelta\r\nbeta\r\n' } });
    const results = await answerToolUses(
      [
        editor('r1', { command: 'str_replace', path: 'win.txt', old_str: 'gamma\ndelta', new_str: 'GAMMA\ninserted\ndelta' }),
        editor('r2', { command: 'str_replace', path: 'win.txt', old_str: 'beta', new_str: 'x' }),
        editor('r3', { command: 'str_replace', path: 'win.txt', old_str: 'omega', new_str: 'x' }),
        editor('r4', { command: 'str_replace', path: 'win.txt', old_str: 'beta\n', new_str: '' }),
      ],
      host,
    );
    expect(text(results[0])).toBe(
      "The file win.txt has been edited. Here's the result of running `cat -n` on a snippet of win.txt:\n     1\talpha\n     2\tbeta GAMMA\n     3\tinserted\n     4\tdelta\n     5\tbeta\n     6\t\nReview the changes and make sure they are as expected. Edit the file again if necessary.",
    );
    expect(text(results[1])).toBe(
      'Error [patch_ambiguous]: No replacement was performed. Multiple occurrences of old_str `beta` in lines [2, 5]. Please ensure it is unique',
    );
    expect(results[2]).toMatchObject({
      is_error: true,
      content: 'Error [patch_context_not_found]: No replacement was performed, old_str `omega` did not appear verbatim in win.txt.',
    });
    expect(results[3].is_error).toBeUndefined();
    expect(Buffer.from(await host.workspace.readFile('win.txt')).toString('utf8')).toBe(
      '\ufeffalpha\r\nbeta GAMMA\r\ninserted\r\ndelta\r\n',
    );
  });

  it('creates files byte for byte, refuses to overwrite one as the reference editor does, and inserts with insert_text or new_str', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'list.txt': 'a\nb\na\nb\n' }, verification: { threshold: Infinity } });
    const results = await answerToolUses(
      [
        editor('c1', { command: 'create', path: 'new/file.txt', file_text: 'first\nsecond\n' }),
        editor('c2', { command: 'create', path: 'new/file.txt', file_text: 'replaced\n' }),
        editor('i1', { command: 'insert', path: 'list.txt', insert_line: 3, insert_text: 'after third' }),
        editor('i2', { command: 'insert', path: 'list.txt', insert_line: 0, new_str: 'top' }),
        editor('i3', { command: 'insert', path: 'list.txt', insert_line: 6, insert_text: 'end' }),
        editor('i4', { command: 'insert', path: 'list.txt', insert_line: 99, insert_text: 'x' }),
      ],
      host,
    );
    expect(results.slice(0, 2).map(text)).toEqual([
      'File created successfully at: new/file.txt',
      'Error [patch_target_exists]: File already exists at: new/file.txt. Cannot overwrite files using command `create`.',
    ]);
    expect(results.slice(2, 5).map((result) => [result.is_error, text(result).split('\n')[0]])).toEqual(
      Array(3).fill([
        undefined,
        "The file list.txt has been edited. Here's the result of running `cat -n` on a snippet of the edited file:",
      ]),
    );
    expect(text(results[5])).toBe(
      'Error [invalid_arguments]: Invalid `insert_line` parameter: 99. It should be within the range of lines of the file: [0, 8]',
    );
    expect(host.files()).toEqual({ 'new/file.txt': 'first\nsecond\n', 'list.txt': 'top\na\nb\na\nafter third\nb\nend\n' });
  });

  it('counts its edits in the anti-blind-editing gate and refuses edits outside the workspace', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'a\n' }, verification: { threshold: 2 } });
    const results = await answerToolUses(
      [
        editor('g1', { command: 'insert', path: 'a.txt', insert_line: 1, insert_text: 'b' }),
        editor('g2', { command: 'create', path: 'b.txt', file_text: 'b' }),
        editor('g3', { command: 'str_replace', path: 'a.txt', old_str: 'a', new_str: 'z' }),
        editor('g4', { command: 'create', path: '../escape.txt', file_text: 'x' }),
      ],
      host,
    );
    expect(text(results[2])).toBe(
      "Error [verification_required]: 2 edits were made without running any check. Run the project's tests, build, lint or typecheck with bash (for example `npm test`, `cargo test`, `pytest`), or, where there are none, a syntax check of an edited file (`node --check FILE`, `bash -n FILE`, `python -m py_compile FILE`); editing resumes as soon as one completes, passing or failing. Reads and inspection commands stay allowed.",
    );
    expect(text(results[3])).toMatch(/^Error \[(outside_workspace|verification_required)\]/);
    expect(host.files()).toEqual({ 'a.txt': 'a\nb\n', 'b.txt': 'b' });
  });

  it('replaces a match at the very start that begins with a line break, and empties the last lines without leaving one behind', async () => {
    const host = createFakeToolHost({
      environment: linux,
      files: { 'lead.txt': '\nfirst\nsecond\n', 'tail.txt': 'keep\ndrop\nlast', 'tail2.txt': 'keep\ndrop\n' },
    });
    const results = await answerToolUses(
      [
        editor('s1', { command: 'str_replace', path: 'lead.txt', old_str: '\nfirst', new_str: 'FIRST' }),
        editor('s2', { command: 'str_replace', path: 'tail.txt', old_str: 'drop\nlast', new_str: '' }),
        editor('s3', { command: 'str_replace', path: 'tail2.txt', old_str: 'drop\n', new_str: '' }),
      ],
      host,
    );
    expect(results.map((result) => result.is_error)).toEqual([undefined, undefined, undefined]);
    expect(host.files()).toEqual({ 'lead.txt': 'FIRST\nsecond\n', 'tail.txt': 'keep\n', 'tail2.txt': 'keep\n' });
  });

  it("replaces only the matched bytes: an unterminated last line stays unterminated, new_str takes the file's CRLF", async () => {
    const files = { 'crlf.txt': 'a\r\n}\r\nhello', 'lf.txt': 'a\n}\nhello', 'two.txt': 'a\nhello', 'mid.txt': 'a\nhello' };
    const host = createFakeToolHost({ environment: linux, files });
    const results = await answerToolUses(
      [
        editor('n1', { command: 'str_replace', path: 'crlf.txt', old_str: 'hello', new_str: '\n' }),
        editor('n2', { command: 'str_replace', path: 'lf.txt', old_str: 'hello', new_str: 'x\n' }),
        editor('n3', { command: 'str_replace', path: 'two.txt', old_str: 'hello', new_str: 'y\nz\n\n' }),
        editor('n4', { command: 'str_replace', path: 'mid.txt', old_str: 'el', new_str: '\n' }),
      ],
      host,
    );
    expect(results.map((result) => result.is_error)).toEqual([undefined, undefined, undefined, undefined]);
    // Each file is its text with the match replaced, nothing added around it; line breaks follow a CRLF file's.
    expect(host.files()).toEqual({ 'crlf.txt': 'a\r\n}\r\n\r\n', 'lf.txt': 'a\n}\nx\n', 'two.txt': 'a\ny\nz\n\n', 'mid.txt': 'a\nh\nlo' });
  });

  it('refuses an edit path with surrounding whitespace or a line break, writing nothing', async () => {
    const host = createFakeToolHost({ environment: linux, files: { 'a.txt': 'a\n' } });
    const results = await answerToolUses(
      [
        editor('w1', { command: 'create', path: 'a.txt ', file_text: 'x' }),
        editor('w2', { command: 'str_replace', path: ' a.txt', old_str: 'a', new_str: 'b' }),
        editor('w3', { command: 'create', path: 'b.txt\n*** Delete File: a.txt', file_text: 'x' }),
      ],
      host,
    );
    expect(results.map(text)).toEqual([
      'Error [invalid_arguments]: path "a.txt " starts or ends with whitespace; file names with surrounding whitespace are not supported: send the path without it.',
      'Error [tool_failed]: The path  a.txt does not exist. Please provide a valid path.',
      'Error [outside_workspace]: path "b.txt\\n*** Delete File: a.txt" contains a NUL or control character',
    ]);
    expect(host.files()).toEqual({ 'a.txt': 'a\n' });
  });

  it('numbers lines like cat -n', () => {
    expect(numberLines(['x', 'y'], 99)).toBe('    99\tx\n   100\ty');
  });
});

describe('bash on a real host', () => {
  let workspace: string;
  let host: ToolHost;
  beforeAll(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-anthropic-bash-'));
    mkdirSync(join(workspace, 'sub'));
    host = createToolHost({ workspace, shellProfile: 'unix_like' });
  });
  afterAll(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  const bash = async (input: Record<string, unknown>, options = {}) =>
    (await answerToolUses([{ type: 'tool_use', id: 'b', name: 'bash', input }], host, { bash: options }))[0];

  it('keeps one shell: the working folder and variables survive between calls; restart resets them', async () => {
    expect(await bash({ command: 'cd sub && export SEEN=yes' })).toEqual({ type: 'tool_result', tool_use_id: 'b', content: '' });
    expect(text(await bash({ command: 'echo "$SEEN in $(basename "$PWD")"' }))).toBe('yes in sub\n');
    expect(text(await bash({ command: 'echo out; echo err >&2; false' }))).toBe('out\nerr\n[exit code 1]');
    expect(text(await bash({ restart: true }))).toBe('The shell was restarted.');
    expect(text(await bash({ command: 'echo "[$SEEN]" && basename "$PWD"' }))).toBe(`[]\n${workspace.split('/').at(-1)}\n`);
  });

  it('gives commands no input, and kills the shell of a command that outlives the timeout', async () => {
    expect(text(await bash({ command: 'cat; echo after-cat' }))).toBe('after-cat\n');
    const slow = await bash({ command: 'echo begun; sleep 30' }, { timeoutMs: 1_000 });
    expect(slow.is_error).toBe(true);
    expect(text(slow)).toBe(
      'Error [tool_failed]: begun\nbash did not return within 1 second, so the shell was killed; the next command starts a new one (working folder and variables reset).',
    );
    expect(text(await bash({ command: 'echo fresh' }))).toBe('fresh\n');
  });

  it('counts a test run in the shell as verification for the gate once it completes, passing or failing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolhost-anthropic-gate-'));
    const gated = createToolHost({
      workspace: dir,
      shellProfile: 'unix_like',
      verification: { threshold: 1, isVerification: (cmd) => cmd.startsWith('test ') },
    });
    try {
      const use = (id: string, name: string, input: Record<string, unknown>) => ({ type: 'tool_use', id, name, input });
      const results = await answerToolUses(
        [
          editor('e1', { command: 'create', path: 'a.txt', file_text: 'a' }),
          editor('e2', { command: 'create', path: 'b.txt', file_text: 'b' }),
          use('t1', 'bash', { command: 'test -f missing.txt' }),
          editor('e3', { command: 'create', path: 'b.txt', file_text: 'b' }),
          editor('e4', { command: 'create', path: 'c.txt', file_text: 'c' }),
          use('l1', 'bash', { command: 'ls' }),
          editor('e5', { command: 'create', path: 'c.txt', file_text: 'c' }),
          use('t2', 'bash', { command: 'test -f a.txt' }),
          editor('e6', { command: 'create', path: 'c.txt', file_text: 'c' }),
        ],
        gated,
      );
      expect(results.map((result) => text(result).split(' ')[0] + (result.is_error ? '!' : ''))).toEqual([
        'File',
        'Error!',
        '[exit',
        'File',
        'Error!',
        'a.txt\nb.txt\n',
        'Error!',
        '',
        'File',
      ]);
    } finally {
      await gated.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('rejects calls without a command', async () => {
    expect(await bash({})).toMatchObject({
      is_error: true,
      content: 'Error [invalid_arguments]: Invalid arguments for bash: command must be a non-empty string (or pass restart: true)',
    });
  });
});

describe('the real Anthropic SDK client against recorded responses', () => {
  it('sends the native tools, and our tool_result blocks go back in the next request', async () => {
    const workspace = mkdtempSync(join(tmpdir(), 'toolhost-anthropic-sdk-'));
    mkdirSync(join(workspace, 'sub'));
    writeFileSync(join(workspace, 'greet.py'), 'def main():\r\n    print("helo")\r\n');
    const host = createToolHost({ workspace, shellProfile: 'unix_like' });
    const turns = ['native-turn-1.json', 'native-turn-2.json'].map((name) => readFileSync(join(here, '__fixtures__', name), 'utf8'));
    const requests: Array<Record<string, unknown>> = [];
    const replay: typeof fetch = async (_url, init) => {
      requests.push(JSON.parse(init?.body as string) as Record<string, unknown>);
      return new Response(turns[requests.length - 1], {
        status: 200,
        headers: { 'content-type': 'application/json', 'request-id': `req_${requests.length}` },
      });
    };
    const client = new Anthropic({ apiKey: 'test-key', baseURL: 'http://127.0.0.1:9', fetch: replay, maxRetries: 0 });
    try {
      const tools = toAnthropicTools(host, { native: true });
      const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'greet.py prints a typo. Fix it.' }];
      const first = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages });
      const results = await answerToolUses(first.content, host);
      messages.push({ role: 'assistant', content: first.content }, { role: 'user', content: results });
      const second = await client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 1024, tools, messages });
      expect(second.content).toEqual([{ type: 'text', text: 'Fixed the greeting in greet.py.' }]);
      expect(requests[0].tools).toEqual([
        { type: 'bash_20250124', name: 'bash' },
        { type: 'text_editor_20250728', name: 'str_replace_based_edit_tool' },
        expect.objectContaining({ name: 'search_tools' }),
      ]);
      const sent = (requests[1].messages as Array<{ content: unknown }>)[2].content as AnthropicToolResultBlock[];
      expect(sent.map((block) => [block.tool_use_id, block.is_error ?? false])).toEqual([
        ['toolu_01View', false],
        ['toolu_01Edit', false],
        ['toolu_01Bash', false],
        ['toolu_01Bash2', false],
      ]);
      expect(sent[0].content).toBe(
        'Here\'s the result of running `cat -n` on greet.py:\n     1\tdef main():\n     2\t    print("helo")\n     3\t\n',
      );
      expect(sent[2].content).toBe(`${join(workspace, 'sub')}\n`);
      // Pipe output reaches the model with CR LF shown as LF; the file keeps its CR LF endings.
      expect(sent[3].content).toBe('hi from sub\ndef main():\n    print("hello")\n');
      expect(readFileSync(join(workspace, 'greet.py'), 'utf8')).toBe('def main():\r\n    print("hello")\r\n');
    } finally {
      await host.close();
      rmSync(workspace, { recursive: true, force: true });
    }
  });
});
