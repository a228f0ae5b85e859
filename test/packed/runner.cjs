// Runs the packed cases inside the temporary consumer project, loading toolhost's packages from CommonJS
// (`require`, the "require" export condition) or from ESM (`import()`, the "import" condition):
//   node runner.cjs --mode esm|cjs [--only exec,pty]
// Prints one line per case and a closing "N passed, M failed, K skipped" line; exits 1 when a case failed. A case that
// needs what the machine lacks (a Docker engine) calls `context.skip(reason)`, and the reason is printed.
'use strict';
const assert = require('node:assert/strict');
const { mkdtempSync, readdirSync, realpathSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');
const { parseArgs } = require('node:util');

const CASE_TIMEOUT_MS = 90_000;

/** Thrown by `context.skip(reason)`. */
class CaseSkipped extends Error {}

async function main() {
  const { values } = parseArgs({ options: { mode: { type: 'string' }, only: { type: 'string' } } });
  const mode = values.mode;
  if (mode !== 'esm' && mode !== 'cjs') throw new Error('--mode esm|cjs');
  const only = values.only ? new Set(values.only.split(',')) : undefined;
  /** Loads an installed package the way this mode's user code would. */
  const load = mode === 'cjs' ? async (name) => require(name) : (name) => import(name);
  const folders = [];
  const tempWorkspace = (files = {}) => {
    const folder = realpathSync(mkdtempSync(join(tmpdir(), 'toolhost-packed-ws-')));
    folders.push(folder);
    for (const [path, text] of Object.entries(files)) {
      const target = join(folder, path);
      require('node:fs').mkdirSync(join(target, '..'), { recursive: true });
      require('node:fs').writeFileSync(target, text);
    }
    return folder;
  };
  const skip = (reason) => {
    throw new CaseSkipped(reason);
  };
  const context = { mode, load, assert, tempWorkspace, skip, projectDir: __dirname };
  const caseFiles = readdirSync(join(__dirname, 'cases'))
    .filter((file) => file.endsWith('.case.mjs'))
    .sort();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const file of caseFiles) {
    const area = file.replace(/\.case\.mjs$/, '');
    if (only && !only.has(area)) continue;
    const { default: cases } = await import(pathToFileURL(join(__dirname, 'cases', file)).href);
    for (const testCase of cases) {
      const started = Date.now();
      let timer;
      try {
        await Promise.race([
          testCase.run(context),
          new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`timed out after ${CASE_TIMEOUT_MS} ms`)), CASE_TIMEOUT_MS);
          }),
        ]);
        passed++;
        console.log(`  ok   [${mode}] ${area}: ${testCase.name} (${Date.now() - started} ms)`);
      } catch (error) {
        if (error instanceof CaseSkipped) {
          skipped++;
          console.log(`  skip [${mode}] ${area}: ${testCase.name}: ${error.message}`);
          continue;
        }
        failed++;
        console.log(
          `  FAIL [${mode}] ${area}: ${testCase.name}\n${String(error && error.stack ? error.stack : error).replace(/^/gm, '       ')}`,
        );
      } finally {
        clearTimeout(timer);
      }
    }
  }
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  console.log(`packed ${mode}: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
