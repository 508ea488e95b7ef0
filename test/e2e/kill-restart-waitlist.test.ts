/**
 * A waitlist assignment survives SIGKILL of the real process at each step: a member's approved request
 * for the full pool 2003 waits in line, a license admin revokes a license of that pool, the freed seat
 * goes to the first in line, and the process is killed while that assign (or its DM) is in flight. The
 * next start on the same DATA_DIR settles it. Asserted is what people see: the requester's licenses at
 * the licensing service (never two), the DMs they got (the seat is theirs, once), the card.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ChangeActionId, RequestActionId } from '../../src/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { requestFormView } from '../support/requests.js';
import { until } from '../support/until.js';
import { allText, buttons } from '../unit/blocks/fixtures.js';

const CHANNEL = 'C0REQUESTS1';
const POOL = '2003';
const ADA = { id: 'U0WQADA001', name: 'ada.wait', realName: 'Ada Wait', email: 'ada.wait@contoso.com' };
const ADMIN = TEST_USERS.admin;
const SETTLE_MS = 60_000;

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ users: [ADA], env: { REQUESTS_CHANNEL: CHANNEL } });
});

afterEach(async () => {
  await desk?.close();
});

const licensesOf = () =>
  desk.sandbox.inspect.licenses({ poolId: POOL, includeInactive: true }).filter((l) => l.student.email === ADA.email);
/** The DM that gives her the freed seat. */
const YOURS = 'A seat freed up and it is yours';
const yours = () => desk.dmsTo(ADA.id, YOURS);
const assignPosts = () =>
  desk.sandbox.requests.filter((r) => r.method === 'POST' && r.url === `/v1/pool/${POOL}/license`);

/** The request's card as it reads now, and how many updates came after `from` calls. */
function card(from = 0) {
  const copies = desk.slack.calls.filter(
    (c) =>
      (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
      c.args.channel === CHANNEL &&
      allText(c.args.blocks).includes(`<@${ADA.id}>`),
  );
  const last = copies.at(-1);
  return {
    text: allText(last?.args.blocks),
    actions: buttons(last?.args).map((b) => b.action_id),
    updatesSince: copies.filter((c) => c.method === 'chat.update' && desk.slack.calls.indexOf(c) >= from).length,
  };
}

/** Ada asks for the full pool, the admin approves and adds the request to the waitlist: she is number 1. */
async function waitlisted(): Promise<void> {
  await desk.start();
  expect(desk.sandbox.inspect.pool(POOL)?.availableLicenses).toBe(0);
  expect((await desk.submit(requestFormView('VKILLWAIT1', POOL), ADA.id)).status).toBe(200);
  const posted = await desk.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${ADA.id}>`),
    15_000,
  );
  const id = String(buttons(posted.args).find((b) => b.action_id === RequestActionId.approve)?.value);
  await desk.click(RequestActionId.approve, id, ADMIN, { channel: CHANNEL, responseId: 'approve' });
  await desk.slack.waitForResponse('approve', (p) => allText(p.body).includes('is full'), 15_000);
  await desk.click(RequestActionId.waitlist, id, ADMIN, { channel: CHANNEL, responseId: 'waitlist' });
  await until('the requester to be told her place', () => desk.dmsTo(ADA.id, 'waitlist, number 1').length > 0, 15_000);
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

async function killAndRestart(): Promise<number> {
  await desk.kill();
  const from = desk.slack.calls.length;
  await desk.start();
  return from;
}

/** Exactly one license for Ada, her request assigned on its card, Ada told once that the seat is hers. */
async function expectAssignedOnce(): Promise<void> {
  await until('the requester to be told the seat is theirs', () => yours().length >= 1, SETTLE_MS, 200);
  await until(
    'the card to show the license assigned',
    () => /license `\d+` assigned/.test(card().text),
    SETTLE_MS,
    200,
  );
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const held = licensesOf();
  expect(held).toHaveLength(1);
  expect(held[0]?.active).toBe(true);
  expect(yours()).toHaveLength(1);
  expect(allText(yours()[0]?.args.blocks)).toContain(`license \`${held[0]?.id}\``);
  expect(card().text).toContain(`license \`${held[0]?.id}\``);
  expect(card().actions).not.toContain(RequestActionId.waitlist);
  // Nobody hears the same thing twice; the approver hears of the seat at most once.
  expect(desk.repeatedDms(ADA.id)).toEqual([]);
  expect(desk.dmsTo(ADMIN, `<@${ADA.id}> got a freed seat`).length).toBeLessThanOrEqual(1);
}

describe('a waitlist assignment, the process killed at each step, started again on the same DATA_DIR', () => {
  it('(a) killed while the assign POST for the freed seat has not reached the service: read back, then the seat is hers or she keeps her place', async () => {
    await waitlisted();
    const hold = desk.holdAssign(POOL, 'before');
    const revoked = await freeASeat();
    await until('the assign POST to be held before the licensing service', () => hold.request !== undefined, 15_000);
    expect(desk.sandbox.inspect.license(revoked)?.active).toBe(false);
    expect(licensesOf()).toEqual([]);

    const from = await killAndRestart();
    await until(
      'the freed seat to be settled (hers and told, or her place kept with the card saying so)',
      () =>
        (licensesOf().length > 0 && yours().length > 0) || (licensesOf().length === 0 && card(from).updatesSince > 0),
      SETTLE_MS,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (licensesOf().length > 0) {
      await expectAssignedOnce();
    } else {
      expect(yours()).toEqual([]);
      expect(card().text).toMatch(/waitlist/i);
      expect(card().text).not.toMatch(/license `\d+` assigned/);
    }
    expect(licensesOf().length).toBeLessThanOrEqual(1);
    expect(desk.repeatedDms(ADA.id)).toEqual([]);
  }, 120_000);

  it('(b) killed after the licensing service applied the assign, its answer pending: one license, the request assigned, she is told once', async () => {
    await waitlisted();
    const hold = desk.holdAssign(POOL, 'after');
    await freeASeat();
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(hold.request?.status).toBeLessThan(300);
    expect(licensesOf()).toHaveLength(1);

    await killAndRestart();
    await expectAssignedOnce();
    expect(assignPosts()).toHaveLength(1);
  }, 120_000);

  it('(c) killed with the seat assigned and her DM not yet accepted by Slack: the next start sends it, once', async () => {
    await waitlisted();
    const hold = desk.holdDm(ADA.id, YOURS);
    await freeASeat();
    await until('the DM to the requester to be held before Slack', () => hold.request !== undefined, 15_000);
    expect(licensesOf()).toHaveLength(1);
    expect(yours()).toEqual([]);

    await killAndRestart();
    await expectAssignedOnce();
    expect(assignPosts()).toHaveLength(1);
  }, 120_000);
});
