/**
 * SIGKILL while a revoke is in flight, with the real main process (src/main.ts in a child process,
 * HTTP mode, the recording Slack double and the sandbox run by the test so that both outlive it:
 * test/support/kill-restart.ts). The admin clicks "Revoke now"; the licensing service applies the
 * DELETE but its answer is held; the process is killed. The next start on the same DATA_DIR reads the
 * license back (never sends the DELETE again), audits the true outcome once and tells the admin once
 * by DM.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { SQLITE_FILE } from '../../src/kernel/db/open.js';
import { textOf } from '../support/change-flow.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { auditTableIn } from '../support/run-main.js';
import { until } from '../support/until.js';

const LICENSE = '4003';

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk();
});

afterEach(async () => {
  await desk?.close();
});

const clickRevokeNow = () =>
  desk.click(ChangeActionId.revokeConfirm, LICENSE, TEST_USERS.admin, {
    channel: 'C0LICOPS01',
    responseId: 'revoke-now',
  });

/** The audit table's entries about the license (none before the database exists). */
const audited = () =>
  existsSync(join(desk.dataDir, SQLITE_FILE)) ? auditTableIn(desk.dataDir).filter((e) => e.licenseId === LICENSE) : [];
const deletes = () => desk.sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${LICENSE}`);
const dmsTo = (user: string) => desk.dmsTo(user, '');

describe('SIGKILL with a revoke in flight', () => {
  it('the next start reads it back: one audit entry with the true outcome, one DM, the license revoked once', async () => {
    await desk.start();
    expect(desk.sandbox.inspect.license(LICENSE)?.active).toBe(true);
    // The DELETE is applied by the licensing service, and its answer never comes.
    const hold = desk.licensing.hold({
      method: 'DELETE',
      path: new RegExp(`^/v1/license/${LICENSE}$`),
      phase: 'after',
    });

    const clicked = await clickRevokeNow();
    expect(clicked.status).toBe(200);
    await until('the DELETE to be applied', () => hold.request !== undefined);
    expect(desk.sandbox.inspect.license(LICENSE)?.active).toBe(false);
    expect(deletes()).toHaveLength(1);

    await desk.kill();
    // Killed before the answer: nothing audited, nobody told.
    expect(audited()).toEqual([]);
    expect(dmsTo(TEST_USERS.admin)).toEqual([]);

    const started = Date.now();
    await desk.start();
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
    expect(desk.sandbox.inspect.license(LICENSE)?.active).toBe(false);

    // A later round (the settler runs every minute) finds nothing more to settle or tell.
    desk.main?.child.kill('SIGTERM');
    expect(await desk.main?.exited).toBe(0);
    await desk.start();
    await new Promise((r) => setTimeout(r, 1500));
    expect(dmsTo(TEST_USERS.admin)).toHaveLength(1);
    expect(audited()).toHaveLength(1);
    expect(deletes()).toHaveLength(1);
  }, 90_000);
});
