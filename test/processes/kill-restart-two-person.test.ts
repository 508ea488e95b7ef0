/**
 * SIGKILL right after a second admin approved a held bulk job, with the real main process (src/main.ts
 * in a child process, HTTP mode, the recording Slack double and the sandbox run by the test so that both
 * outlive it: test/support/kill-restart.ts). The job's first assign is held before the licensing
 * service; the process is killed. The next start runs the approved job to its end, each row assigned
 * once, and never starts it a second time; the submitter is told of the approval once.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeskCallbackId, TwoPersonActionId } from '../../src/kernel/blocks/ids.js';
import { bulkFormValues } from '../support/bulk.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { until } from '../support/until.js';

const ADMIN = TEST_USERS.admin;
const SECOND = TEST_USERS.workspaceAdmin;
const EMAILS = ['kt.one@contoso.com', 'kt.two@contoso.com', 'kt.three@contoso.com'];

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({
    env: { LICENSE_ADMINS: `${ADMIN},${SECOND}`, TWO_PERSON_MIN_ROWS: '2', TWO_PERSON_EXPIRY_HOURS: '24' },
  });
});

afterEach(async () => {
  await desk?.close();
});

const assigns = () =>
  desk.sandbox.requests.filter((r) => r.method === 'POST' && r.url === '/v1/pool/2007/license' && r.status === 200);

describe('SIGKILL right after a held bulk job was approved', () => {
  it('the next start finishes the approved job: each row assigned once, the job never started twice', async () => {
    await desk.start();
    const form = await desk.submit(
      {
        id: 'VKILLTP001',
        callback_id: DeskCallbackId.bulkForm,
        state: { values: bulkFormValues('2007', [EMAILS.join('\n')]) },
      },
      ADMIN,
    );
    const externalId = (JSON.parse(form.text) as { view?: { external_id?: string } }).view?.external_id;
    await until('the dry run', () =>
      desk.slack.calls.some((c) => c.method === 'views.update' && c.args.external_id === externalId),
    );
    const report = desk.slack.calls.find((c) => c.method === 'views.update' && c.args.external_id === externalId);
    const metadata = (report?.args.view as { private_metadata?: string } | undefined)?.private_metadata;
    const held = await desk.submit(
      {
        id: 'VKILLTP002',
        callback_id: DeskCallbackId.bulkConfirm,
        private_metadata: String(metadata),
        state: { values: {} },
      },
      ADMIN,
    );
    expect(held.text).toContain("Sent for a second admin's approval");
    await until('the card', () => desk.dmsTo(SECOND, 'wants to assign 3 licenses').length > 0, 30_000);
    const card = desk.dmsTo(SECOND, 'wants to assign 3 licenses')[0];
    const id = String(buttons(card?.args).find((b) => b.action_id === TwoPersonActionId.approve)?.value);

    const first = desk.holdAssign('2007', 'before');
    await desk.click(TwoPersonActionId.approve, id, SECOND, {
      channel: `D${SECOND.slice(1)}`,
      responseId: 'tp-kill-1',
    });
    await until('the first assign to be held', () => first.request !== undefined, 30_000);
    await desk.kill();
    expect(assigns()).toEqual([]);

    await desk.start();
    await until('every row assigned', () => assigns().length === 3, 60_000);
    // The progress message in the submitter's DM says the job finished (chat.update in place).
    const finished = () =>
      desk.slack.calls.some(
        (c) =>
          (c.method === 'chat.update' || c.method === 'chat.postMessage') &&
          c.args.channel === `D${ADMIN.slice(1)}` &&
          allText(c.args).includes('Bulk assignment finished'),
      );
    await until('the job finished', finished, 60_000);
    expect(assigns()).toHaveLength(3);
    expect(desk.dmsTo(ADMIN, 'approved your change')).toHaveLength(1);
    expect(desk.repeatedDms(ADMIN)).toEqual([]);
  }, 120_000);
});
