/**
 * A Chromium for the browser tests: CHROMIUM_PATH when set, else Debian's /usr/bin/chromium (CI installs
 * it with apt-get, .ci/run). Without one the tests are skipped with `chromiumSkipReason`; under CI=true a
 * missing browser is a failure instead, never a quiet skip.
 */
import { accessSync, constants, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const candidates = [process.env.CHROMIUM_PATH?.trim(), '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(
  (p): p is string => typeof p === 'string' && p !== '',
);

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export const chromiumPath: string | undefined = candidates.find(executable);

export const chromiumSkipReason: string | undefined =
  chromiumPath === undefined ? 'no Chromium: set CHROMIUM_PATH or install it (apt-get install chromium)' : undefined;

if (chromiumSkipReason !== undefined && process.env.CI === 'true') {
  throw new Error(`CI=true but ${chromiumSkipReason}`);
}

/** Git-ignored folder for screenshots people can look at. */
export function screenshotDir(): string {
  const dir = fileURLToPath(new URL('../../screenshots/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  return dir;
}
