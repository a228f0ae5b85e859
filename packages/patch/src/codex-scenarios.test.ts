// Runs every scenario of Codex's apply-patch crate (github.com/openai/codex,
// codex-rs/apply-patch/tests/fixtures/scenarios/<name>/{patch.txt,input/,expected/}, driven by tests/suite/scenarios.rs)
// through the apply_patch tool on a real folder, and compares the folder with `expected/` byte for byte, folders
// included. The fixtures are copied as data into __fixtures__/codex-scenarios. Scenarios where toolhost deliberately
// differs name the deviation and assert toolhost's outcome instead.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeWorkspace } from '@toolhost/core/node';
import { applyPatch } from './apply-patch.js';
import { readTree, writeTree, type FileTree } from './__fixtures__/codex-reference-binary.js';

const SCENARIOS = join(import.meta.dirname, '__fixtures__', 'codex-scenarios');

/** Scenarios whose expected folder toolhost does not produce on purpose: the deviation and what toolhost leaves. */
const DEVIATIONS: Record<string, { deviation: string; expected: Record<string, string> }> = {
  '010_move_overwrites_existing_destination': {
    deviation:
      'a Move to onto an existing file is refused instead of overwriting it (an edit never destroys a file it does not name as changed)',
    expected: { 'old/name.txt': 'from\n', 'old/other.txt': 'unrelated file\n', 'renamed/dir/name.txt': 'existing\n' },
  },
  '011_add_overwrites_existing_file': {
    deviation: 'Add File onto an existing file is refused instead of overwriting it (the model is told to update it)',
    expected: { 'duplicate.txt': 'old content\n' },
  },
  '015_failure_after_partial_success_leaves_changes': {
    deviation: 'a patch applies all or nothing: when one operation fails, the operations before it are not written',
    expected: {},
  },
};

function treeOf(folder: string): FileTree {
  try {
    return readTree(folder).files;
  } catch {
    return {};
  }
}

const text = (files: FileTree) => Object.fromEntries(Object.entries(files).map(([path, data]) => [path, new TextDecoder().decode(data)]));

describe('Codex apply-patch scenarios (tests/fixtures/scenarios)', () => {
  let base: string;
  beforeEach(() => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-codex-scenario-')));
  });
  afterEach(() => rmSync(base, { recursive: true, force: true }));

  const names = readdirSync(SCENARIOS).sort();

  it('has all 23 scenarios of the reference (two share the number 020)', () => {
    expect(names).toHaveLength(23);
  });

  it.each(names)('%s', async (name) => {
    const scenario = join(SCENARIOS, name);
    const root = join(base, 'ws');
    mkdirSync(root);
    writeTree(root, treeOf(join(scenario, 'input')));
    const patch = readFileSync(join(scenario, 'patch.txt'), 'utf8');
    const result = await applyPatch(createNodeWorkspace(root), patch);
    const actual = readTree(root);
    const deviation = DEVIATIONS[name];
    if (deviation) {
      expect(result.ok, deviation.deviation).toBe(false);
      expect(text(actual.files)).toEqual(deviation.expected);
      return;
    }
    const expected = readTree(join(scenario, 'expected'));
    expect(actual.files).toEqual(expected.files);
    expect(actual.folders).toEqual(expected.folders);
    // The reference's own rejecting scenarios are named "rejects", "requires" or "fails"; the rest succeed.
    expect(result.ok).toBe(!/rejects|requires|fails/.test(name));
  });
});
