/**
 * The process a crash test kills: once loaded it prints `loaded` and waits for a line on stdin, then opens a host on
 * the folder given and edits every `f*.txt` file in one call, again and again (version N to N+1 on one line of each),
 * until it is killed. `apply_patch` or `edit` (the native surface) chooses the way in. After its first edit it prints
 * `ready <milliseconds that edit took>`. The third argument is the workspace's durability (`disk` or `process`).
 */
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLocalEnvironment, createToolHost, type FileOperation } from 'toolhost';

const [root, surface, durability] = process.argv.slice(2) as [string, 'apply_patch' | 'edit', 'disk' | 'process'];
process.stdout.write('loaded\n');
await once(process.stdin, 'data');
const host = createToolHost({ environment: createLocalEnvironment({ root, durability }), verification: { threshold: Infinity } });
const files = readdirSync(root)
  .filter((name) => /^f\d+\.txt$/.test(name))
  .sort();

function versionOf(name: string): number {
  return Number(/^version (\d+)$/m.exec(readFileSync(join(root, name), 'utf8'))![1]);
}

for (let edits = 0; ; edits++) {
  const started = performance.now();
  const version = versionOf(files[0]!);
  const body = ['@@', `-version ${version}`, `+version ${version + 1}`].join('\n');
  const result =
    surface === 'edit'
      ? await host.edit(files.map((path): FileOperation => ({ kind: 'update', path, diff: `${body}\n` })))
      : await host.call('apply_patch', {
          input: ['*** Begin Patch', ...files.flatMap((path) => [`*** Update File: ${path}`, body]), '*** End Patch'].join('\n'),
        });
  if (!result.ok) {
    process.stderr.write(`${result.output}\n`);
    process.exit(3);
  }
  if (edits === 0) process.stdout.write(`ready ${Math.round(performance.now() - started)}\n`);
}
