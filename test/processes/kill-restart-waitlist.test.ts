/**
 * A waitlist assignment survives SIGKILL of the real process at each step: a member's approved request
 * for the full pool 2003 waits in line, a license admin revokes a license of that pool, the freed seat
 * goes to the first in line, and the process is killed while that assign (or its DM) is in flight. The
 * next start on the same DATA_DIR settles it. Asserted is what people see: the requester's licenses at
 * the licensing service (never two), the DMs they got (the seat is theirs, once), the card.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS1';
const POOL = '2003';
const ADA = { id: 'U0WQADA001', name: 'ada.wait', realName: 'Ada Wait', email: 'ada.wait@contoso.com' };
const ADMIN = TEST_USERS.admin;
const SETTLE_MS = 60_000;

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ users: [ADA], env: { REQUESTS_CHANNEL: CHANNEL, WAITLIST_OFFER_HOURS: '0' } });
});

afterEach(async () => {
  await desk?.close();
});

/** The DM that gives her the freed seat. */
const YOURS = 'A seat freed up and it is yours';
/** Ada's request for the full pool. */
const ada = watchRequest(() => desk, {
  channel: CHANNEL,
  pool: POOL,
  requester: ADA.id,
  email: ADA.email,
  yours: YOURS,
});

/** Ada asks for the full pool, the admin approves and adds the request to the waitlist: she is number 1. */
async function waitlisted(): Promise<void> {
  await ada.waitlistedFirst('VKILLWAIT1', ADMIN);
}

/** The admin revokes a license of the pool that is not Ada's: the seat goes to her. The license revoked. */
async function freeASeat(): Promise<string> {
  const seat = desk.sandbox.inspect
    .licenses({ poolId: POOL })
    .find((l) => l.active && l.revokable && l.student.email !== ADA.email);
  if (!seat) throw new Error(`pool ${POOL} has no license to revoke`);
  const clicked = await desk.click(ChangeActionId.revokeConfirm, seat.id, ADMIN, {
    channel: 'C0LICOPS01',
    responseId: 'revoke',
  });
  expect(clicked.status).toBe(200);
  return seat.id;
}

/** Exactly one license for Ada, her request assigned on its card (off the waitlist), Ada told once that the seat is hers. */
async function expectSeatOnce(): Promise<void> {
  await ada.expectAssignedOnce(SETTLE_MS);
  expect(ada.card().actions).not.toContain(RequestActionId.waitlist);
  // The approver hears of the seat at most once.
  expect(desk.dmsTo(ADMIN, `<@${ADA.id}> got a freed seat`).length).toBeLessThanOrEqual(1);
}

describe('a waitlist assignment, the process killed at each step, started again on the same DATA_DIR', () => {
  it('(a) killed while the assign POST for the freed seat has not reached the service: read back, then the seat is hers or she keeps her place', async () => {
    await waitlisted();
    const hold = desk.holdAssign(POOL, 'before');
    const revoked = await freeASeat();
    await until('the assign POST to be held before the licensing service', () => hold.request !== undefined, 15_000);
    expect(desk.sandbox.inspect.license(revoked)?.active).toBe(false);
    expect(ada.licenses()).toEqual([]);

    const from = await desk.killAndRestart();
    await until(
      'the freed seat to be settled (hers and told, or her place kept with the card saying so)',
      () =>
        (ada.licenses().length > 0 && ada.yours().length > 0) ||
        (ada.licenses().length === 0 && ada.card(from).updatesSince > 0),
      SETTLE_MS,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (ada.licenses().length > 0) {
      await expectSeatOnce();
    } else {
      expect(ada.yours()).toEqual([]);
      expect(ada.card().text).toMatch(/waitlist/i);
      expect(ada.card().text).not.toMatch(/license `\d+` assigned/);
    }
    expect(ada.licenses().length).toBeLessThanOrEqual(1);
    expect(desk.repeatedDms(ADA.id)).toEqual([]);
  }, 120_000);

  it('(b) killed after the licensing service applied the assign, its answer pending: one license, the request assigned, she is told once', async () => {
    await waitlisted();
    const hold = desk.holdAssign(POOL, 'after');
    await freeASeat();
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(hold.request?.status).toBeLessThan(300);
    expect(ada.licenses()).toHaveLength(1);

    await desk.killAndRestart();
    await expectSeatOnce();
    expect(ada.assignPosts()).toHaveLength(1);
  }, 120_000);

  it('(c) killed with the seat assigned and her DM not yet accepted by Slack: the next start sends it, once', async () => {
    await waitlisted();
    const hold = desk.holdDm(ADA.id, YOURS);
    await freeASeat();
    await until('the DM to the requester to be held before Slack', () => hold.request !== undefined, 15_000);
    expect(ada.licenses()).toHaveLength(1);
    expect(ada.yours()).toEqual([]);

    await desk.killAndRestart();
    await expectSeatOnce();
    expect(ada.assignPosts()).toHaveLength(1);
  }, 120_000);
});
