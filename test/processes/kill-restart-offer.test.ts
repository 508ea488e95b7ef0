/**
 * A claim of a seat offered from the waitlist survives SIGKILL of the real process: a member's approved
 * request for the full pool 2003 waits in line, a license admin revokes a license of that pool, the
 * freed seat is offered to her (WAITLIST_OFFER_HOURS at its default), she clicks Claim, and the process
 * is killed while the assign's answer is held after the licensing service applied it. The next start
 * on the same DATA_DIR settles the claim by reading back: one license, one assign POST, the "yours" DM
 * once, and a second Claim changes nothing.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId, OfferActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { type KilledDesk, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS1';
const POOL = '2003';
const ADA = { id: 'U0WOADA001', name: 'ada.offer', realName: 'Ada Offer', email: 'ada.offer@contoso.com' };
const ADMIN = TEST_USERS.admin;
const SETTLE_MS = 60_000;
const OFFERED = 'is yours if you claim it by';

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ users: [ADA], env: { REQUESTS_CHANNEL: CHANNEL } });
});

afterEach(async () => {
  await desk?.close();
});

const ada = watchRequest(() => desk, {
  channel: CHANNEL,
  pool: POOL,
  requester: ADA.id,
  email: ADA.email,
  yours: 'A seat freed up and it is yours',
});
const dm = { channel: `D${ADA.id.slice(1)}` };

/** Ada waits first in line; a license admin revokes another seat of the pool; the offer's id from her DM. */
async function offered(): Promise<string> {
  await ada.waitlistedFirst('VKILLOFFR1', ADMIN);
  const seat = desk.sandbox.inspect
    .licenses({ poolId: POOL })
    .find((l) => l.active && l.revokable && l.student.email !== ADA.email);
  if (!seat) throw new Error(`pool ${POOL} has no license to revoke`);
  await desk.click(ChangeActionId.revokeConfirm, seat.id, ADMIN, { channel: 'C0LICOPS01', responseId: 'revoke' });
  await until('the seat to be offered to her', () => desk.dmsTo(ADA.id, OFFERED).length > 0, 15_000);
  expect(ada.assignPosts()).toEqual([]);
  const offer = desk.dmsTo(ADA.id, OFFERED)[0];
  return String(buttons(offer?.args).find((b) => b.action_id === OfferActionId.claim)?.value);
}

describe('a claim of an offered seat, the process killed in flight, started again on the same DATA_DIR', () => {
  it('killed after the licensing service applied the assign, its answer pending: one license, one POST, told once', async () => {
    const offerId = await offered();
    const hold = desk.holdAssign(POOL, 'after');
    // The click's answer waits on the held assign: not awaited, the process is killed under it.
    const clicking = desk
      .click(OfferActionId.claim, offerId, ADA.id, { ...dm, responseId: 'claim' })
      .catch(() => undefined);
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(ada.licenses()).toHaveLength(1);

    await desk.killAndRestart();
    await clicking;
    await ada.expectAssignedOnce(SETTLE_MS);
    expect(ada.assignPosts()).toHaveLength(1);

    // A second Claim after the restart changes nothing.
    await desk.click(OfferActionId.claim, offerId, ADA.id, { ...dm, responseId: 'again' });
    const again = await desk.slack.waitForResponse('again', () => true, 15_000);
    expect(allText(again.body)).toMatch(/claimed it already|has moved on/);
    expect(ada.assignPosts()).toHaveLength(1);
    expect(ada.yours()).toHaveLength(1);
    expect(desk.repeatedDms(ADA.id)).toEqual([]);
  }, 120_000);
});
