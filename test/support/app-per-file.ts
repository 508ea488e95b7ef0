/**
 * One app for all the tests of a file (or of a describe block): started in `beforeAll`, closed in
 * `afterAll`, with a data directory of its own that is removed after it.
 *
 *   const t = appPerFile('desk-progress-', (dataDir) => startTestApp({ dataDir, now }));
 *
 * `t` stands for the started app: read it inside tests and hooks only (before `beforeAll` there is none).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import type { TestApp } from './app-harness.js';

export function appPerFile(prefix: string, start: (dataDir: string) => Promise<TestApp>): TestApp {
  let app: TestApp | undefined;
  let dir: string | undefined;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), prefix));
    app = await start(dir);
  });
  afterAll(async () => {
    await app?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  return new Proxy({} as TestApp, {
    get(_, key) {
      if (!app) throw new Error('the app starts in beforeAll: use it inside tests and hooks');
      const value = Reflect.get(app, key, app) as unknown;
      return typeof value === 'function' ? value.bind(app) : value;
    },
    set(_, key, value) {
      if (!app) throw new Error('the app starts in beforeAll: use it inside tests and hooks');
      return Reflect.set(app, key, value, app);
    },
  });
}
