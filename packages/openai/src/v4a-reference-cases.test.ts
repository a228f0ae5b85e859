import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDiff } from '@openai/agents-core';
import { createToolHost, type ToolHost } from 'toolhost';
import { runApplyPatchOperation } from './apply-patch-operation.js';
import { createAgentsEditor } from './agents-editor.js';

/**
 * The peers' own cases of the V4A format (openai-agents-js applyDiff tests, openai-agents-python apply_diff and sandbox
 * apply_patch tests), each run as one operation through a real host on a fresh folder. A case marked `deviation` asserts
 * toolhost's bytes where they differ from a reference, and names why.
 */
interface ReferenceCase {
  source: string;
  name: string;
  files: Record<string, string>;
  operation: Record<string, unknown>;
  after: Record<string, string>;
  refused?: string;
  deviation?: string;
  note?: string;
  /** For toolhost's own cases: what applyDiff does with the same input (`same`: what toolhost does), checked live. */
  reference?: 'same' | { writes?: string; refuses?: boolean };
}

/** What @openai/agents-core applyDiff makes of the case's file and diff. */
function referenceOutcome(testCase: ReferenceCase): { writes?: string; refuses?: boolean } {
  const operation = testCase.operation as { type: string; path: string; diff: string };
  try {
    return {
      writes: applyDiff(testCase.files[operation.path] ?? '', operation.diff, operation.type === 'create_file' ? 'create' : 'default'),
    };
  } catch {
    return { refuses: true };
  }
}

const cases = JSON.parse(readFileSync(new URL('./__fixtures__/v4a-reference-cases.json', import.meta.url), 'utf8')) as ReferenceCase[];

function writeTree(root: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}

function readTree(root: string): Record<string, string> {
  const tree: Record<string, string> = {};
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    tree[relative(root, full)] = readFileSync(full, 'utf8');
  }
  return tree;
}

describe('V4A reference cases through a real host', () => {
  let workspace: string;
  let host: ToolHost;
  beforeEach(() => {
    workspace = mkdtempSync(join(tmpdir(), 'toolhost-v4a-cases-'));
    host = createToolHost({ workspace, shellProfile: 'unix_like', verification: { threshold: Infinity } });
  });
  afterEach(async () => {
    await host.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  it.each(cases.map((testCase) => [`${testCase.source} > ${testCase.name}${testCase.deviation ? ' (deviation)' : ''}`, testCase] as const))(
    '%s',
    async (_title, testCase) => {
      writeTree(workspace, testCase.files);
      const outcome = await runApplyPatchOperation(host, testCase.operation);
      if (testCase.refused) {
        expect({ status: outcome.status, code: outcome.result.error?.code }).toEqual({ status: 'failed', code: testCase.refused });
      } else {
        expect({ status: outcome.status, output: outcome.output }).toMatchObject({
          status: 'completed',
          output: expect.stringMatching(/^Success\./),
        });
      }
      expect(readTree(workspace)).toEqual(testCase.after);
      if (testCase.reference === 'same') {
        const path = (testCase.operation as { path: string }).path;
        expect(referenceOutcome(testCase)).toEqual(testCase.refused ? { refuses: true } : { writes: testCase.after[path] });
      } else if (testCase.reference) expect(referenceOutcome(testCase)).toEqual(testCase.reference);
    },
  );

  it('openai-agents-python tests/sandbox/test_apply_patch.py > test_apply_patch_update_non_utf8_payload_raises', async () => {
    writeFileSync(join(workspace, 'binary.txt'), Buffer.from([0xff, 0xfe, 0xfd]));
    const outcome = await runApplyPatchOperation(host, { type: 'update_file', path: 'binary.txt', diff: '@@\n+\n' });
    expect(outcome.status).toBe('failed');
    expect([...readFileSync(join(workspace, 'binary.txt'))]).toEqual([0xff, 0xfe, 0xfd]);
  });

  it('openai-agents-python tests/sandbox/test_apply_patch.py > test_apply_patch_allows_absolute_path_within_root', async () => {
    const editor = createAgentsEditor(host);
    const outcome = await editor.createFile({ type: 'create_file', path: join(workspace, 'abs-ok.txt'), diff: '+hello' });
    expect(outcome.status).toBe('completed');
    expect(readTree(workspace)).toEqual({ 'abs-ok.txt': 'hello' });
  });
});
