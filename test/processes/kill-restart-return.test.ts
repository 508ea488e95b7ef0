/**
 * SIGKILL while a learner's "Return my seat" is in flight, with the real main process (src/main.ts in
 * a child process, HTTP mode, the recording Slack double and the sandbox run by the test so that both
 * outlive it: test/support/kill-restart.ts). The holder confirms the return; the licensing service
 * applies the DELETE but its answer is held; the process is killed. The next start reads the license
 * back (never sends the DELETE again), audits the return by its holder once and tells them once.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LearnerCallbackId } from '../../src/kernel/blocks/ids.js';
import { SQLITE_FILE } from '../../src/kernel/db/open.js';
import { textOf } from '../support/change-flow.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { auditTableIn } from '../support/run-main.js';
import { until } from '../support/until.js';

const LICENSE = '4003';
const HOLDER = 'U0HOLDKIL1';

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk();
});

afterEach(async () => {
  await desk?.close();
});

const audited = () =>
  existsSync(join(desk.dataDir, SQLITE_FILE)) ? auditTableIn(desk.dataDir).filter((e) => e.licenseId === LICENSE) : [];
const deletes = () => desk.sandbox.requests.filter((r) => r.method === 'DELETE' && r.url === `/v1/license/${LICENSE}`);

describe('SIGKILL with a learner’s return in flight', () => {
  it('the next start reads it back: the return audited once as its holder’s, one DM, one DELETE', async () => {
    const license = desk.sandbox.inspect.license(LICENSE);
    if (!license) throw new Error(`no license ${LICENSE} in the sandbox`);
    desk.slack.setUser({ id: HOLDER, name: 'holder', realName: license.student.name, email: license.student.email });
    await desk.start();
    const hold = desk.licensing.hold({
      method: 'DELETE',
      path: new RegExp(`^/v1/license/${LICENSE}$`),
      phase: 'after',
    });

    const submitted = await desk.submit(
      {
        id: 'VRETURNK01',
        callback_id: LearnerCallbackId.returnConfirm,
        private_metadata: JSON.stringify({ licenseId: LICENSE, home: false }),
        state: { values: {} },
      },
      HOLDER,
    );
    expect(submitted.status).toBe(200);
    await until('the DELETE to be applied', () => hold.request !== undefined);
    expect(desk.sandbox.inspect.license(LICENSE)?.active).toBe(false);

    await desk.kill();
    expect(audited()).toEqual([]);

    await desk.start();
    await until('the holder to be told', () => desk.dmsTo(HOLDER, '').length > 0, 60_000);
    expect(audited()).toEqual([
      expect.objectContaining({
        action: 'returned',
        outcome: 'done',
        actor: HOLDER,
        detail: expect.stringContaining('settled after a restart'),
      }),
    ]);
    const [dm, ...more] = desk.dmsTo(HOLDER, '');
    expect(more).toEqual([]);
    expect(textOf(dm?.args)).toContain(`your return of license \`${LICENSE}\``);
    expect(deletes()).toHaveLength(1);
  }, 90_000);
});
