/**
 * SIGKILL while a revoke is in flight, with the real main process (src/main.ts in a child process,
 * HTTP mode, the recording Slack double, the sandbox run by the test so that both outlive it). The
 * admin clicks "Revoke now"; the sandbox applies the DELETE but holds its answer; the process is
 * killed. The next start on the same DATA_DIR reads the license back (never sends the DELETE again),
 * audits the true outcome once and tells the admin once by DM.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId } from '../../src/blocks/ids.js';
import { SQLITE_FILE } from '../../src/db/open.js';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/types.js';
import { type FakeSlack, startFakeSlack, TEST_USERS } from '../support/fake-slack.js';
import { auditTableIn, eventsUrlOf, localAppEnv, type MainProcess, runMain } from '../support/run-main.js';
import { interactionBody, slackHeaders } from '../support/slack-signing.js';
import { until } from '../support/until.js';
import { textOf } from './change-support.js';

const SECRET = 'kill0in0flight0signing0secret0tests';
const BOT = 'xoxb-kill';
const LICENSE = '4003';

let slack: FakeSlack;
let sandbox: RunningSandbox;
let dataDir: string;
let main: MainProcess | undefined;

beforeEach(async () => {
  slack = await startFakeSlack({ botToken: BOT });
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
  dataDir = mkdtempSync(join(tmpdir(), 'license-desk-kill-'));
});

afterEach(async () => {
  main?.child.kill('SIGKILL');
  await main?.exited;
  main = undefined;
  await sandbox.close();
  await slack.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function startMain(): Promise<string> {
  main = runMain(
    localAppEnv(
      {
        slackApiUrl: slack.apiUrl,
        sandboxUrl: sandbox.url,
        sandboxToken: sandbox.adminToken,
        botToken: BOT,
        signingSecret: SECRET,
      },
      { LICENSE_ADMINS: TEST_USERS.admin, DATA_DIR: dataDir },
    ),
  );
  return eventsUrlOf(main);
}

function clickRevokeNow(eventsUrl: string): Promise<Response> {
  const ts = `${Date.now() / 1000}`;
  const body = interactionBody({
    type: 'block_actions',
    user: { id: TEST_USERS.admin, username: 'dana.lee', name: 'dana.lee', team_id: 'T0ACME0001' },
    api_app_id: 'A0LICBOT01',
    token: 'qWeRtY1234567890AsDfGhJk',
    container: { type: 'message', message_ts: ts, channel_id: 'C0LICOPS01', is_ephemeral: true },
    trigger_id: `${Date.now()}.1.trigger`,
    team: { id: 'T0ACME0001', domain: 'acme-learning' },
    channel: { id: 'C0LICOPS01', name: 'license-ops' },
    state: { values: {} },
    response_url: slack.responseUrl('revoke-now'),
    actions: [
      { action_id: ChangeActionId.revokeConfirm, block_id: 'b', type: 'button', value: LICENSE, action_ts: ts },
    ],
  });
  return fetch(eventsUrl, { method: 'POST', headers: slackHeaders(SECRET, body), body });
}

/** The audit table's entries about the license (none before the database exists). */
const audited = () =>
  existsSync(join(dataDir, SQLITE_FILE)) ? auditTableIn(dataDir).filter((e) => e.licenseId === LICENSE) : [];
const deletes = () => sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${LICENSE}`);
const dmsTo = (user: string) => slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === user);

describe('SIGKILL with a revoke in flight', () => {
  it('the next start reads it back: one audit entry with the true outcome, one DM, the license revoked once', async () => {
    const first = await startMain();
    expect(sandbox.inspect.license(LICENSE)?.active).toBe(true);
    // The DELETE is applied by the licensing service, and its answer never comes.
    sandbox.addFault({ kind: 'hang', method: 'DELETE', phase: 'after' });

    const clicked = await clickRevokeNow(first);
    expect(clicked.status).toBe(200);
    await until('the DELETE to be applied', () => sandbox.inspect.license(LICENSE)?.active === false);
    expect(deletes()).toHaveLength(1);

    main?.child.kill('SIGKILL');
    await main?.exited;
    // Killed before the answer: nothing audited, nobody told.
    expect(audited()).toEqual([]);
    expect(dmsTo(TEST_USERS.admin)).toEqual([]);
    sandbox.clearFaults();

    const started = Date.now();
    await startMain();
    await until('the admin to be told', () => dmsTo(TEST_USERS.admin).length > 0, 60_000);
    const within = Date.now() - started;
    expect(within).toBeLessThan(60_000);

    const entries = audited();
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'revoke',
        outcome: 'done',
        actor: TEST_USERS.admin,
        detail: expect.stringContaining('settled after a restart'),
      }),
    ]);
    const [dm, ...more] = dmsTo(TEST_USERS.admin);
    expect(more).toEqual([]);
    expect(textOf(dm?.args)).toMatch(/After a restart: the revoke of .+'s license `4003` in pool `2001` was done/);
    expect(deletes()).toHaveLength(1);
    expect(sandbox.inspect.license(LICENSE)?.active).toBe(false);

    // A later round (the settler runs every minute) finds nothing more to settle or tell.
    main?.child.kill('SIGTERM');
    expect(await main?.exited).toBe(0);
    await startMain();
    await main?.waitFor(/"message":"License Desk started"/);
    await new Promise((r) => setTimeout(r, 1500));
    expect(dmsTo(TEST_USERS.admin)).toHaveLength(1);
    expect(audited()).toHaveLength(1);
    expect(deletes()).toHaveLength(1);
  }, 90_000);
});
