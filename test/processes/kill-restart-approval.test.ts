/**
 * An approval survives SIGKILL of the real process at each step of its licensing write and its DM:
 * a member asks for a course with the signed request form, a license admin clicks Approve on the card,
 * the process is killed, and the next start on the same DATA_DIR settles what was in flight. What is
 * asserted is what people see: the licenses the licensing service holds for the requester (never two),
 * the DMs the requester got (the license is theirs, once), and the card (no Approve once assigned).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { buildDist, eventsUrlOf } from '../support/run-main.js';
import { until } from '../support/until.js';

const { channel: CHANNEL, pool: POOL, requester: REQUESTER } = NORA_ASKS;
const ADMIN = TEST_USERS.admin;
/** How long the next start may take to settle what was in flight. */
const SETTLE_MS = 60_000;

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: CHANNEL } });
});

afterEach(async () => {
  await desk?.close();
});

const nora = watchRequest(() => desk, NORA_ASKS);

/** The member asks through the form; the card reaches the channel; the admin's Approve is sent. */
async function askAndApprove(): Promise<{ requestId: string }> {
  await desk.start();
  const requestId = await nora.askWithForm('VKILLREQ1');
  await nora.untilReceived();
  return { requestId };
}

async function approve(requestId: string): Promise<void> {
  const clicked = await desk.click(RequestActionId.approve, requestId, ADMIN, {
    channel: CHANNEL,
    responseId: 'approve',
  });
  expect(clicked.status).toBe(200);
}

/** Exactly one license, the request assigned on its card (no Approve, the approver named), the requester told once. */
async function expectApprovedOnce(): Promise<void> {
  await nora.expectAssignedOnce(SETTLE_MS, (card) => !card.actions.includes(RequestActionId.approve));
  expect(nora.card().text).toContain(`Approved by <@${ADMIN}>`);
  // Whatever the approver is told of the outcome, at most once.
  expect(desk.dmsTo(ADMIN, `Your approval of <@${REQUESTER}>`).length).toBeLessThanOrEqual(1);
}

describe('an approval, the process killed at each step, started again on the same DATA_DIR', () => {
  it('(a) killed while the licensing POST has not reached the service: the next start reads back, and the request ends as the licensing service says', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'before');
    await approve(requestId);
    await until('the assign POST to be held before the licensing service', () => hold.request !== undefined, 15_000);
    expect(nora.licenses()).toEqual([]);

    const from = await desk.killAndRestart();
    // Settled either way: the license made and told, or the request back to pending on its card.
    await until(
      'the approval to be settled (a license told, or the card offering Approve again)',
      () =>
        (nora.licenses().length > 0 && nora.yours().length > 0) ||
        (nora.licenses().length === 0 &&
          nora.card(from).updatesSince > 0 &&
          nora.card().actions.includes(RequestActionId.approve)),
      SETTLE_MS,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (nora.licenses().length > 0) {
      await expectApprovedOnce();
    } else {
      // Nothing was assigned, and nobody claims it was; the approver, whose click came to nothing, hears why once.
      expect(nora.yours()).toEqual([]);
      expect(nora.card().text).not.toMatch(/license `\d+` assigned/);
      const toApprover = desk.dmsTo(ADMIN, `<@${REQUESTER}>`).filter((c) => desk.slack.calls.indexOf(c) >= from);
      expect(toApprover).toHaveLength(1);
    }
    expect(nora.licenses().length).toBeLessThanOrEqual(1);
    expect(desk.repeatedDms(REQUESTER)).toEqual([]);
  }, 120_000);

  it('(b) killed after the licensing service applied the POST, its answer pending: one license, the request assigned, the requester told once', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'after');
    await approve(requestId);
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(hold.request?.status).toBeLessThan(300);
    expect(nora.licenses()).toHaveLength(1);

    await desk.killAndRestart();
    await expectApprovedOnce();
    // Read back, never resent.
    expect(nora.assignPosts()).toHaveLength(1);
  }, 120_000);

  it('(b) under npm start, SIGKILL to its process group (npm and node): one license, the request assigned, the requester told once', async () => {
    expect(await buildDist()).toBe(0);
    await desk.close();
    desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: CHANNEL }, npmStart: true });
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'after');
    await approve(requestId);
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(nora.licenses()).toHaveLength(1);

    await desk.killAndRestart();
    // npm's node went with the group: nothing answers on the first process's port any more.
    const first = desk.runs[0];
    if (!first) throw new Error('no first run');
    const health = (await eventsUrlOf(first)).replace('/slack/events', '/healthz');
    await expect(fetch(health)).rejects.toThrow();
    await expectApprovedOnce();
    expect(nora.assignPosts()).toHaveLength(1);
  }, 240_000);

  it('(c) killed with the license assigned and the DM "it is yours" not yet accepted by Slack: the next start sends it, once', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdDm(REQUESTER, NORA_ASKS.yours);
    await approve(requestId);
    await until('the DM to the requester to be held before Slack', () => hold.request !== undefined, 15_000);
    expect(nora.licenses()).toHaveLength(1);
    expect(nora.yours()).toEqual([]);

    await desk.killAndRestart();
    await expectApprovedOnce();
    expect(nora.assignPosts()).toHaveLength(1);
  }, 120_000);
});
