/**
 * Seats offered, then claimed (docs/leavers-and-offers.md#seats-offered-then-claimed), end to end through signed requests: with
 * WAITLIST_OFFER_HOURS at 48 a seat freed in the full pool 2003 of the sandbox is offered to the first
 * in line by DM (Claim / I don't need it) instead of assigned; the seat is held (an approval for the
 * pool meanwhile finds it full); Claim assigns it with one POST and one "yours" DM; a claim after the
 * offer moved on, or by someone else, changes nothing; "I don't need it" and a deadline passed (the
 * app's clock moved, the offers' job ticked) offer it to the next in line.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChangeActionId, OfferActionId, ReclaimActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { observationOf } from '../../src/progress/domain/progress.js';
import { requestTimers } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { assignState, openModal, settledView, submit, textOf } from '../support/change-flow.js';
import { dmChannel } from '../support/dms.js';
import { slackMember } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { clickInRequestsChannel, poolOnlyRequestView } from '../support/requests.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0OFFERS01';
const POOL = '2003';
const ADMIN = TEST_USERS.admin;
const U = {
  ada: slackMember('U0OFADA001', 'ada.offer'),
  bo: slackMember('U0OFBOB001', 'bo.offer'),
  cy: slackMember('U0OFCYX001', 'cy.offer'),
  dee: slackMember('U0OFDEE001', 'dee.offer'),
  eli: slackMember('U0OFELI001', 'eli.offer'),
};
const OURS = Object.values(U).map((u) => u.email as string);
const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const T0 = Date.now();
const clock = { t: T0 };

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({
    now: () => new Date(clock.t),
    admins: [ADMIN],
    slack: { users: Object.values(U).map((u) => ({ ...u })) },
    requests: { channel: CHANNEL, timers: requestTimers(24, 7) },
    waitlist: { offers: { hours: 48, notStartedDays: 14 } },
    reclaim: {},
  });
});

afterAll(async () => {
  await t?.close();
});

const dmsTo = (user: string, words: string) =>
  t.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && c.args.channel === dmChannel(user) && allText(c.args.blocks).includes(words),
  );
const dm = (user: string, words: string) =>
  t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === dmChannel(user) && allText(c.args.blocks).includes(words),
  );
const OFFERED = 'is yours if you claim it by';
const YOURS = 'A seat freed up and it is yours';
const assignPosts = () => t.sandbox.requests.filter((r) => r.method === 'POST' && /\/license\b|assign/.test(r.url));
const activeIn = () => t.sandbox.inspect.licenses({ poolId: POOL }).filter((l) => l.active);
const holds = (email: string) => activeIn().some((l) => l.student.email === email);
const statusOf = async (id: string) => (await t.deps.requests?.store.get(id))?.status;

const click = (actionId: string, value: string, userId: string) =>
  clickInRequestsChannel(t, { channel: CHANNEL, ts: '1767225600.000900' }, actionId, value, userId);

/** `user` asks for pool 2003 by the form; the admin approves; the answer to Approve. */
async function approved(user: string): Promise<{ id: string; choice: string }> {
  await t.viewSubmission({ view: poolOnlyRequestView(`VOF${user}`, POOL, 'command') }, { userId: user });
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${user}>`),
  );
  const id = String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
  const choice = await (await click(RequestActionId.approve, id, ADMIN)).waitForResponse();
  return { id, choice: allText(choice.body.blocks) };
}

/** `user`'s request approved and added to the waitlist. */
async function waitlisted(user: string): Promise<string> {
  const { id, choice } = await approved(user);
  expect(choice).toContain('is full');
  await (await click(RequestActionId.waitlist, id, ADMIN)).waitForResponse();
  expect(await statusOf(id)).toBe('waitlisted');
  return id;
}

/** A license admin revokes a seat of the pool none of ours holds; the revoke's answer. */
async function freeASeat(): Promise<string> {
  const seat = activeIn().find((l) => l.revokable && !OURS.includes(l.student.email));
  if (!seat) throw new Error('no seat left to free');
  const clicked = await t.clickButton(ChangeActionId.revokeConfirm, seat.id);
  return allText((await clicked.waitForResponse((p) => allText(p.body.blocks).includes('Revoked'))).body.blocks);
}

/** The offer DM to `user`: its Claim and "I don't need it" values (the offer id). */
async function offerTo(user: string): Promise<string> {
  const message = await dm(user, OFFERED);
  const ids = buttons(message.args).map((b) => b.action_id);
  expect(ids).toEqual([OfferActionId.claim, OfferActionId.decline]);
  return String(buttons(message.args)[0]?.value);
}

async function answer(actionId: string, offerId: string, user: string): Promise<string> {
  const clicked = await t.clickButton(actionId, offerId, { userId: user, channelId: dmChannel(user) });
  return allText((await clicked.waitForResponse()).body.blocks);
}

/** A claim after the offer moved on: the sentence says why, nothing is assigned, the seat is not theirs. */
async function lateClaimRefused(offerId: string, who: { id: string; email: string }, why: string): Promise<void> {
  expect(await answer(OfferActionId.claim, offerId, who.id)).toContain(why);
  await t.settled();
  expect(assignPosts()).toEqual([]);
  expect(holds(who.email)).toBe(false);
}

describe('a freed seat offered, then claimed', () => {
  let adaOffer = '';
  let boRequest = '';

  it('a freed seat is offered to the first in line by DM, not assigned, and held: an approval meanwhile finds the pool full', async () => {
    expect(t.sandbox.inspect.pool(POOL)?.availableLicenses).toBe(0);
    const adaRequest = await waitlisted(U.ada.id);
    boRequest = await waitlisted(U.bo.id);
    t.sandbox.clearRequests();

    // The confirmation already says the seat will be offered, not assigned.
    const seat = activeIn().find((l) => l.revokable && !OURS.includes(l.student.email));
    const confirm = await (await t.command(`revoke ${seat?.id}`)).waitForResponse((p) =>
      allText(p.body.blocks).includes('Revoke license'),
    );
    expect(allText(confirm.body.blocks)).toContain(
      'is offered to the first person on its waitlist, held for them 48 hours',
    );
    const revoked = await freeASeat();
    adaOffer = await offerTo(U.ada.id);
    expect(revoked).toContain(`offered to <@${U.ada.id}>`);
    // Nothing assigned: the seat waits for her claim, and she is still first in line.
    expect(assignPosts()).toEqual([]);
    expect(t.sandbox.inspect.pool(POOL)?.availableLicenses).toBe(1);
    expect(await statusOf(adaRequest)).toBe('waitlisted');
    expect(dmsTo(U.bo.id, OFFERED)).toEqual([]);

    // The seat is held: a new request approved for the pool is told it is full, and gets no license.
    const { choice } = await approved(U.eli.id);
    expect(choice).toContain('is full');
    expect(holds(U.eli.email)).toBe(false);
    expect(assignPosts()).toEqual([]);
  });

  it('a click on the offer by someone else is refused and changes nothing', async () => {
    const said = await answer(OfferActionId.claim, adaOffer, U.bo.id);
    expect(said).toContain('offered to someone else');
    expect(assignPosts()).toEqual([]);
    expect(holds(U.bo.email)).toBe(false);
  });

  it('Claim assigns the seat with one licensing write, and she is told once; a second click changes nothing', async () => {
    const said = await answer(OfferActionId.claim, adaOffer, U.ada.id);
    expect(said).toContain('You claimed the seat');
    await dm(U.ada.id, YOURS);
    expect(holds(U.ada.email)).toBe(true);
    expect(assignPosts()).toHaveLength(1);

    const again = await answer(OfferActionId.claim, adaOffer, U.ada.id);
    expect(again).toContain('has moved on (you claimed it already)');
    await t.settled();
    expect(assignPosts()).toHaveLength(1);
    expect(dmsTo(U.ada.id, YOURS)).toHaveLength(1);
  });

  it('"I don\'t need it" passes the seat to the next in line; a claim after it is refused', async () => {
    const cy = await waitlisted(U.cy.id);
    await freeASeat();
    const boOffer = await offerTo(U.bo.id);
    t.sandbox.clearRequests();

    const said = await answer(OfferActionId.decline, boOffer, U.bo.id);
    expect(said).toContain('goes to the next person on the waitlist');
    expect(await statusOf(boRequest)).toBe('cancelled');
    await offerTo(U.cy.id);
    expect(await statusOf(cy)).toBe('waitlisted');

    await lateClaimRefused(boOffer, U.bo, 'has moved on (you passed it on)');
    expect(dmsTo(U.bo.id, OFFERED)).toHaveLength(1);
  });

  it('an offer not claimed by its deadline goes to the next in line (the clock moved, the job ticked); a late claim is refused', async () => {
    const dee = await waitlisted(U.dee.id);
    const cyOffer = String(buttons((await dm(U.cy.id, OFFERED)).args)[0]?.value);
    t.sandbox.clearRequests();

    clock.t += 47 * HOUR_MS;
    expect((await t.selfService?.offers?.tick())?.expired).toBe(0);
    clock.t += 2 * HOUR_MS;
    expect((await t.selfService?.offers?.tick())?.expired).toBe(1);
    await dm(U.cy.id, 'was not claimed');
    await offerTo(U.dee.id);
    expect(await statusOf(dee)).toBe('waitlisted');

    await lateClaimRefused(cyOffer, U.cy, 'its deadline passed');
    // Each told once.
    expect(dmsTo(U.cy.id, 'was not claimed')).toHaveLength(1);
    expect(dmsTo(U.dee.id, OFFERED)).toHaveLength(1);
  });

  it('an admin who assigns by hand in the pool is told the seat is on offer; the claim then finds it full and keeps her place', async () => {
    const deeOffer = String(buttons((await dm(U.dee.id, OFFERED)).args)[0]?.value);
    const form = await openModal(t, () => t.command(`assign ${POOL}`));
    const from = t.slack.calls.length;
    await submit(t, form, assignState({ pool: POOL, email: 'hand.made@contoso.com' }));
    const result = textOf((await settledView(t, form.id, from)).blocks);
    expect(result).toContain('Assigned');
    expect(result).toContain(`on offer from the waitlist to <@${U.dee.id}>`);
    expect(holds('hand.made@contoso.com')).toBe(true);
    t.sandbox.clearRequests();

    const said = await answer(OfferActionId.claim, deeOffer, U.dee.id);
    expect(said).toContain('You keep your place first on the waitlist');
    expect(holds(U.dee.email)).toBe(false);
    expect(assignPosts()).toEqual([]);
    expect((await t.deps.waitlist?.entries(POOL))?.[0]?.requester).toBe(U.dee.id);
  });

  it('a seat claimed from an offer that still shows 0 % after OFFER_NOT_STARTED_DAYS is asked about as a reclaim round of one, once', async () => {
    const license = activeIn().find((l) => l.student.email === U.ada.email);
    if (!license || !t.records) throw new Error('ada holds no license');
    // The daily progress pass found her at 0 %.
    await createProgressStore(t.records).record(
      [{ ...observationOf(license, 0, null), active: true }],
      new Date(clock.t),
    );
    clock.t = T0 + 13 * DAY_MS;
    expect((await t.selfService?.offers?.tick())?.asked).toBe(0);
    expect(dmsTo(U.ada.id, 'Still learning')).toEqual([]);

    clock.t = T0 + 15 * DAY_MS;
    expect((await t.selfService?.offers?.tick())?.asked).toBe(1);
    const ask = await dm(U.ada.id, 'Still learning');
    const keep = buttons(ask.args).find((b) => b.action_id === ReclaimActionId.keep);
    expect(keep).toBeDefined();
    // Asked once: the next ticks ask nobody.
    expect((await t.selfService?.offers?.tick())?.asked).toBe(0);

    // Her answer goes through the reclaim round's own Keep.
    const clicked = await t.clickButton(ReclaimActionId.keep, String(keep?.value), {
      userId: U.ada.id,
      channelId: dmChannel(U.ada.id),
    });
    expect(allText((await clicked.waitForResponse()).body.blocks)).toContain('you keep your seat');
    expect(holds(U.ada.email)).toBe(true);
    expect(dmsTo(U.ada.id, 'Still learning')).toHaveLength(1);
  });

  it('a requester who cancels while a seat is on offer releases its hold: the next tick frees the seat, and the offer no longer answers', async () => {
    const dee = (await t.deps.waitlist?.entries(POOL))?.[0];
    expect(dee?.requester).toBe(U.dee.id);
    await freeASeat();
    const offers = dmsTo(U.dee.id, OFFERED);
    await until('a second offer to her', () => dmsTo(U.dee.id, OFFERED).length > offers.length);
    const offerId = String(buttons(dmsTo(U.dee.id, OFFERED).at(-1)?.args)[0]?.value);
    expect(await t.selfService?.offers?.held(POOL)).toHaveLength(1);

    await (await t.clickButton(RequestActionId.cancel, String(dee?.requestId), { userId: U.dee.id })).waitForResponse();
    expect(await statusOf(String(dee?.requestId))).toBe('cancelled');
    await t.selfService?.offers?.tick();
    expect(await t.selfService?.offers?.held(POOL)).toEqual([]);
    expect(await answer(OfferActionId.claim, offerId, U.dee.id)).toContain('no longer on offer');
    expect(holds(U.dee.email)).toBe(false);
  });
});
