// Preloaded with --import: records the URL of every ES module the process loads, through a loader hook.
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const { port1, port2 } = new MessageChannel();
const loaded = [];
const waiting = new Map();
port1.on('message', (url) => {
  loaded.push(url);
  waiting.get(url)?.();
});
port1.unref();
register('./module-log-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

/** Every module URL loaded so far (the hook thread's messages arrive in order, so a module loaded last closes the list). */
export async function loadedModules() {
  const marker = `data:text/javascript,export default ${JSON.stringify(String(Date.now()) + Math.random())}`;
  const seen = new Promise((resolve) => waiting.set(marker, resolve));
  await import(marker);
  await seen;
  return loaded.filter((url) => url !== marker);
}
