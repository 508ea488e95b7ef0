/**
 * A real app process per test (run-main.ts) on doubles of its own: a fresh fake Slack, sandbox (no
 * rate limit) and DATA_DIR before each test, all closed after it, the process killed first (its whole
 * process group when it was started with `npmStart`). The setup several process tests share.
 *
 *   const rig = mainRig({ name: 'audit-table', secret: SECRET, botToken: TEST_BOT_TOKEN });
 *   const main = rig.start({ AUDIT_CHANNEL: 'C0AUDIT001' });   // LICENSE_ADMINS and DATA_DIR preset
 *   rig.sandbox.inspect…, rig.slack.calls…, rig.dataDir
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { type FakeSlack, startFakeSlack, TEST_USERS } from './fake-slack.js';
import { localAppEnv, type MainProcess, type RunMainOptions, runMain } from './run-main.js';

export interface MainRig {
  readonly slack: FakeSlack;
  readonly sandbox: RunningSandbox;
  readonly dataDir: string;
  /** The process of this test, once started. */
  readonly main: MainProcess | undefined;
  /** Starts src/main.ts on the doubles; LICENSE_ADMINS (the test admin) and DATA_DIR are set, `env` adds or overrides. */
  start(env?: Record<string, string>, options?: RunMainOptions): MainProcess;
}

export function mainRig(o: { name: string; secret: string; botToken: string }): MainRig {
  let slack: FakeSlack | undefined;
  let sandbox: RunningSandbox | undefined;
  let dataDir: string | undefined;
  let main: MainProcess | undefined;
  let group = false;
  const need = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`${what} exists only inside a test`);
    return v;
  };

  beforeEach(async () => {
    slack = await startFakeSlack({ botToken: o.botToken });
    sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
    dataDir = mkdtempSync(join(tmpdir(), `license-desk-${o.name}-`));
  });

  afterEach(async () => {
    const pid = main?.child.pid;
    if (group && pid !== undefined) {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    } else main?.child.kill('SIGKILL');
    await main?.exited;
    main = undefined;
    await sandbox?.close();
    await slack?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get slack() {
      return need(slack, 'the fake Slack');
    },
    get sandbox() {
      return need(sandbox, 'the sandbox');
    },
    get dataDir() {
      return need(dataDir, 'the DATA_DIR');
    },
    get main() {
      return main;
    },
    start(env = {}, options = {}) {
      const s = need(slack, 'the fake Slack');
      const b = need(sandbox, 'the sandbox');
      group = options.npmStart === true;
      main = runMain(
        localAppEnv(
          {
            slackApiUrl: s.apiUrl,
            sandboxUrl: b.url,
            sandboxToken: b.adminToken,
            botToken: o.botToken,
            signingSecret: o.secret,
          },
          { LICENSE_ADMINS: TEST_USERS.admin, DATA_DIR: need(dataDir, 'the DATA_DIR'), ...env },
        ),
        options,
      );
      return main;
    },
  };
}
