/**
 * Preload for bench/startup.ts (`node --import ./bench/module-count.mjs ...`): counts the files a process
 * loads, ES modules (a loader hook that reports every file: URL it loads) and CommonJS modules
 * (require.cache), without Node's built-ins. On SIGUSR2 it writes the count and the files to the path in
 * MODULE_COUNT_FILE, so the bench can ask once the process answers; nothing else changes.
 */
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';

const esm = new Set();
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => esm.add(fileURLToPath(url)));
port1.unref();
register('./module-count-hooks.mjs', { parentURL: import.meta.url, data: { port: port2 }, transferList: [port2] });

const cache = createRequire(import.meta.url).cache;
process.on('SIGUSR2', () => {
  const files = new Set([...esm, ...Object.keys(cache)]);
  const out = process.env.MODULE_COUNT_FILE;
  if (out) writeFileSync(out, JSON.stringify({ count: files.size, files: [...files].sort() }));
});
