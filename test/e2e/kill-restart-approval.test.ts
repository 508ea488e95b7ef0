/**
 * An approval survives SIGKILL of the real process at each step of its licensing write and its DM:
 * a member asks for a course with the signed request form, a license admin clicks Approve on the card,
 * the process is killed, and the next start on the same DATA_DIR settles what was in flight. What is
 * asserted is what people see: the licenses the licensing service holds for the requester (never two),
 * the DMs the requester got (the license is theirs, once), and the card (no Approve once assigned).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { requestFormView } from '../support/requests.js';
import { buildDist, eventsUrlOf } from '../support/run-main.js';
import { until } from '../support/until.js';
import { allText, buttons } from '../unit/blocks/fixtures.js';

const CHANNEL = 'C0REQUESTS1';
const POOL = '2005';
const REQUESTER = TEST_USERS.nobody;
const EMAIL = 'nora.quinn@acme-learning.example';
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

/** Every license the requester ever held in the pool, as the licensing service keeps them. */
const licensesOf = () =>
  desk.sandbox.inspect.licenses({ poolId: POOL, includeInactive: true }).filter((l) => l.student.email === EMAIL);
/** "license `4321` is yours": the DM that gives the license (not one saying it is being assigned). */
const YOURS = /license `\d+` is yours/;
const yours = () => desk.dmsTo(REQUESTER, YOURS);
const assignPosts = () =>
  desk.sandbox.requests.filter((r) => r.method === 'POST' && r.url === `/v1/pool/${POOL}/license`);

/** The request's card as it reads now (its last post or update in the requests channel), and how many updates came after `from` calls. */
function card(from = 0) {
  const copies = desk.slack.calls.filter(
    (c) =>
      (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
      c.args.channel === CHANNEL &&
      allText(c.args.blocks).includes(`<@${REQUESTER}>`),
  );
  const last = copies.at(-1);
  return {
    text: allText(last?.args.blocks),
    actions: buttons(last?.args).map((b) => b.action_id),
    updatesSince: copies.filter((c) => c.method === 'chat.update' && desk.slack.calls.indexOf(c) >= from).length,
  };
}

/** The member asks through the form; the card reaches the channel; the admin's Approve is sent. */
async function askAndApprove(): Promise<{ requestId: string }> {
  await desk.start();
  expect((await desk.submit(requestFormView('VKILLREQ1', POOL), REQUESTER)).status).toBe(200);
  const posted = await desk.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${REQUESTER}>`),
    15_000,
  );
  await until(
    'the requester to be told the request was received',
    () => desk.dmsTo(REQUESTER, 'was received').length > 0,
    15_000,
  );
  return { requestId: String(buttons(posted.args).find((b) => b.action_id === RequestActionId.approve)?.value) };
}

async function approve(requestId: string): Promise<void> {
  const clicked = await desk.click(RequestActionId.approve, requestId, ADMIN, {
    channel: CHANNEL,
    responseId: 'approve',
  });
  expect(clicked.status).toBe(200);
}

/** SIGKILL, then the same process again on the same DATA_DIR and settings: the Slack calls made before it. */
async function killAndRestart(): Promise<number> {
  await desk.kill();
  const from = desk.slack.calls.length;
  await desk.start();
  return from;
}

/** Exactly one license, the request assigned on its card, the requester told once that it is theirs. */
async function expectAssignedOnce(): Promise<void> {
  await until('the requester to be told the license is theirs', () => yours().length >= 1, SETTLE_MS, 200);
  await until(
    'the card to show the license assigned',
    () => /license `\d+` assigned/.test(card().text) && !card().actions.includes(RequestActionId.approve),
    SETTLE_MS,
    200,
  );
  // A second DM or a second write would come right behind the first: give them the time to.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const held = licensesOf();
  expect(held).toHaveLength(1);
  expect(held[0]?.active).toBe(true);
  expect(yours()).toHaveLength(1);
  expect(allText(yours()[0]?.args.blocks)).toContain(`license \`${held[0]?.id}\``);
  expect(card().text).toContain(`license \`${held[0]?.id}\``);
  expect(card().text).toContain(`Approved by <@${ADMIN}>`);
  // Nobody hears the same thing twice; whatever the approver is told of the outcome, at most once.
  expect(desk.repeatedDms(REQUESTER)).toEqual([]);
  expect(desk.dmsTo(ADMIN, `Your approval of <@${REQUESTER}>`).length).toBeLessThanOrEqual(1);
}

describe('an approval, the process killed at each step, started again on the same DATA_DIR', () => {
  it('(a) killed while the licensing POST has not reached the service: the next start reads back, and the request ends as the licensing service says', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'before');
    await approve(requestId);
    await until('the assign POST to be held before the licensing service', () => hold.request !== undefined, 15_000);
    expect(licensesOf()).toEqual([]);

    const from = await killAndRestart();
    // Settled either way: the license made and told, or the request back to pending on its card.
    await until(
      'the approval to be settled (a license told, or the card offering Approve again)',
      () =>
        (licensesOf().length > 0 && yours().length > 0) ||
        (licensesOf().length === 0 && card(from).updatesSince > 0 && card().actions.includes(RequestActionId.approve)),
      SETTLE_MS,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    if (licensesOf().length > 0) {
      await expectAssignedOnce();
    } else {
      // Nothing was assigned, and nobody claims it was; the approver, whose click came to nothing, hears why once.
      expect(yours()).toEqual([]);
      expect(card().text).not.toMatch(/license `\d+` assigned/);
      const toApprover = desk.dmsTo(ADMIN, `<@${REQUESTER}>`).filter((c) => desk.slack.calls.indexOf(c) >= from);
      expect(toApprover).toHaveLength(1);
    }
    expect(licensesOf().length).toBeLessThanOrEqual(1);
    expect(desk.repeatedDms(REQUESTER)).toEqual([]);
  }, 120_000);

  it('(b) killed after the licensing service applied the POST, its answer pending: one license, the request assigned, the requester told once', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'after');
    await approve(requestId);
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(hold.request?.status).toBeLessThan(300);
    expect(licensesOf()).toHaveLength(1);

    await killAndRestart();
    await expectAssignedOnce();
    // Read back, never resent.
    expect(assignPosts()).toHaveLength(1);
  }, 120_000);

  it('(b) under npm start, SIGKILL to its process group (npm and node): one license, the request assigned, the requester told once', async () => {
    expect(await buildDist()).toBe(0);
    await desk.close();
    desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: CHANNEL }, npmStart: true });
    const { requestId } = await askAndApprove();
    const hold = desk.holdAssign(POOL, 'after');
    await approve(requestId);
    await until('the assign POST to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(licensesOf()).toHaveLength(1);

    await killAndRestart();
    // npm's node went with the group: nothing answers on the first process's port any more.
    const first = desk.runs[0];
    if (!first) throw new Error('no first run');
    const health = (await eventsUrlOf(first)).replace('/slack/events', '/healthz');
    await expect(fetch(health)).rejects.toThrow();
    await expectAssignedOnce();
    expect(assignPosts()).toHaveLength(1);
  }, 240_000);

  it('(c) killed with the license assigned and the DM "it is yours" not yet accepted by Slack: the next start sends it, once', async () => {
    const { requestId } = await askAndApprove();
    const hold = desk.holdDm(REQUESTER, YOURS);
    await approve(requestId);
    await until('the DM to the requester to be held before Slack', () => hold.request !== undefined, 15_000);
    expect(licensesOf()).toHaveLength(1);
    expect(yours()).toEqual([]);

    await killAndRestart();
    await expectAssignedOnce();
    expect(assignPosts()).toHaveLength(1);
  }, 120_000);
});
