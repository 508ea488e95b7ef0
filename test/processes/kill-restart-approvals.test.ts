/**
 * Approving many at once survives SIGKILL of the real process in the middle: two members ask for
 * pool 2005 with the signed request form, a license admin confirms Approve selected for both, and
 * the process is killed while the first (oldest) approval's licensing write is applied but its answer
 * held. The next start on the same DATA_DIR settles that write by reading back, as for a single
 * approval: one license, its requester told once. The run is not resumed: the second request is still
 * waiting, untouched; approving the two again assigns the second and skips the first.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { encodeSelection } from '../../src/approvals/domain/selection.js';
import { ApprovalsCallbackId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { until } from '../support/until.js';

const ADMIN = TEST_USERS.admin;
const SETTLE_MS = 60_000;
const BO = { id: 'U0BOKILL01', name: 'bo.baker', email: 'bo.baker@contoso.com' };
const BO_ASKS = { ...NORA_ASKS, requester: BO.id, email: BO.email };

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: NORA_ASKS.channel }, users: [BO] });
});

afterEach(async () => {
  await desk?.close();
});

const nora = watchRequest(() => desk, NORA_ASKS);
const bo = watchRequest(() => desk, BO_ASKS);

/** The confirmation of Approve selected for `ids`, submitted by the admin as Slack sends it. */
function approveSelected(ids: string[], viewId: string) {
  return desk.submit(
    {
      id: viewId,
      callback_id: ApprovalsCallbackId.confirmApprove,
      private_metadata: encodeSelection({ page: 0, ids }),
      state: { values: {} },
    },
    ADMIN,
  );
}

describe('approving many at once, the process killed mid-way, started again on the same DATA_DIR', () => {
  it('settles the write in flight once, leaves the rest waiting, and a second run finishes them', async () => {
    await desk.start();
    const first = await nora.askWithForm('VKILLAPP1');
    await nora.untilReceived();
    const second = await bo.askWithForm('VKILLAPP2');
    await bo.untilReceived();

    const hold = desk.holdAssign(NORA_ASKS.pool, 'after');
    expect((await approveSelected([first, second], 'VKILLCONF1')).status).toBe(200);
    await until('the first assign to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(nora.licenses()).toHaveLength(1);

    await desk.killAndRestart();
    await nora.expectAssignedOnce(SETTLE_MS);
    expect(nora.assignPosts()).toHaveLength(1);
    // The run was not resumed: the second request is still waiting, nothing written for it.
    expect(bo.licenses()).toEqual([]);
    expect(bo.yours()).toEqual([]);

    expect((await approveSelected([first, second], 'VKILLCONF2')).status).toBe(200);
    await until(
      'the admin to hear the second run ended',
      () => desk.dmsTo(ADMIN, /1 skipped/).length > 0 || updated('1 skipped'),
      SETTLE_MS,
      200,
    );
    await bo.expectAssignedOnce(SETTLE_MS);
    expect(nora.licenses()).toHaveLength(1);
    expect(nora.yours()).toHaveLength(1);
    expect(desk.repeatedDms(NORA_ASKS.requester)).toEqual([]);
    expect(desk.repeatedDms(BO.id)).toEqual([]);
  }, 180_000);
});

/** Whether the admin's progress DM was updated to say `words`. */
function updated(words: string): boolean {
  return desk.slack.calls.some(
    (c) =>
      c.method === 'chat.update' &&
      c.args.channel === `D${ADMIN.slice(1)}` &&
      JSON.stringify(c.args.blocks).includes(words),
  );
}
