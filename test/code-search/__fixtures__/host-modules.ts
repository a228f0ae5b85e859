// Builds a host (`real` or `fake`) of the profile named on the command line, answers one call, closes it and prints
// the URLs of the modules the process loaded, as JSON.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error: a plain ES module preloaded with --import, without declarations.
import { loadedModules } from './module-log.mjs';

const [kind, profile] = process.argv.slice(2) as ['real' | 'fake', 'default' | 'advanced'];
const workspace = mkdtempSync(join(tmpdir(), 'host-modules-'));
try {
  const host =
    kind === 'fake'
      ? (await import('@toolhost/testing')).createFakeToolHost({ profile, commands: [{ match: 'true', output: '' }] })
      : (await import('toolhost')).createToolHost({ workspace, profile, codeSearch: { index: false } });
  const result = await host.call('exec_command', { cmd: 'true' });
  if (!result.ok) throw new Error(result.output);
  await host.close();
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
// eslint-disable-next-line @typescript-eslint/no-unsafe-call -- a plain ES module without declarations (see its import)
process.stdout.write(JSON.stringify(await loadedModules()));
