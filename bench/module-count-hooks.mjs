/** Loader hooks for bench/module-count.mjs: every file: URL loaded as a module goes to the main thread. */
let port;
export function initialize(data) {
  port = data.port;
}
export async function load(url, context, next) {
  if (url.startsWith('file:')) port.postMessage(url);
  return next(url, context);
}
