/**
 * The process a remote crash test kills: it opens the remote environment given (JSON of a `RemoteCrashTarget`), prints
 * `loaded` and waits for a line on stdin, then opens a host on it and edits every `f*.txt` file in one apply_patch call,
 * again and again (version N to N+1 on one line of each), until it is killed. After its first edit it prints
 * `ready <milliseconds that edit took>`.
 */
import { once } from 'node:events';
import { createToolHost } from 'toolhost';
import { openRemote, type RemoteCrashTarget } from './crash-commit-remote.js';

const target = JSON.parse(process.argv[2]!) as RemoteCrashTarget;
const environment = await openRemote(target);
process.stdout.write('loaded\n');
await once(process.stdin, 'data');
const host = createToolHost({ environment, verification: { threshold: Infinity } });
const files = (await environment.workspace.readdir(''))
  .map((entry) => entry.name)
  .filter((name) => /^f\d+\.txt$/.test(name))
  .sort();

async function versionOf(name: string): Promise<number> {
  return Number(/^version (\d+)$/m.exec(new TextDecoder().decode(await environment.workspace.readFile(name)))![1]);
}

for (let edits = 0; ; edits++) {
  const started = performance.now();
  const version = await versionOf(files[0]!);
  const body = ['@@', `-version ${version}`, `+version ${version + 1}`].join('\n');
  const result = await host.call('apply_patch', {
    input: ['*** Begin Patch', ...files.flatMap((path) => [`*** Update File: ${path}`, body]), '*** End Patch'].join('\n'),
  });
  if (!result.ok) {
    process.stderr.write(`${result.output}\n`);
    process.exit(3);
  }
  if (edits === 0) process.stdout.write(`ready ${Math.round(performance.now() - started)}\n`);
}
