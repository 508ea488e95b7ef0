/**
 * Names in the licensing system and in the records, end to end: a course request approved, a
 * request given a freed seat by the waitlist, and the assign form's "pick a Slack member" send the
 * person's Slack name with the assign (so the licensing service does not create them as "Student");
 * a name typed in the form wins. Every audit channel post and App Home's "Recent changes" name people
 * as Slack renders them (mentions or names), never an escaped mention, a bare user id or a course
 * request's id, and an end-date change's record says what the new date replaced.
 */
import { describe, expect, it } from 'vitest';
import { CallbackId, ChangeActionId, InputId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { assignState, extendState, openModal, settledView, submit } from '../support/change-flow.js';
import { waitForDm } from '../support/dms.js';
import type { SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { clickInRequestsChannel, requestFormView, sampleRequest, selfServiceTo } from '../support/requests.js';

const CHANNEL = 'C0REQUESTS1';
const AUDIT = 'C0AUDITNAME';
const ADMIN = TEST_USERS.admin;
/** Slack shows a real name, else the display name. */
const IVY = { id: 'U0NAMEIVY1', name: 'ivy.d', realName: 'Ivy Delacroix', email: 'ivy.delacroix@contoso.com' };
const OLA = { id: 'U0NAMEOLA1', name: 'ola.wait', realName: 'Ola Nowak', email: 'ola.nowak@contoso.com' };
const PIM = { id: 'U0NAMEPIM1', name: 'pim.pick', realName: 'Pim van Dijk', email: 'pim.vandijk@contoso.com' };
const RIA = { id: 'U0NAMERIA1', name: 'ria.r', realName: 'Ria Recycler', email: 'ria.recycler@contoso.com' };
const TYP = { id: 'U0NAMETYP1', name: 'typ.o', realName: 'Slack Name', email: 'typed.name@contoso.com' };
const EMA = { id: 'U0NAMEEMA1', name: 'ema.mail', realName: 'Ema Mailwright', email: 'ema.mailwright@contoso.com' };
const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);

const t = appPerFile('audit-names-', (dataDir) =>
  startTestApp({
    dataDir,
    auditChannel: AUDIT,
    auditPosting: { paceMs: 0 },
    admins: [ADMIN, TEST_USERS.workspaceAdmin],
    slack: { users: [IVY, OLA, PIM, RIA, TYP, EMA] },
    ...selfServiceTo(CHANNEL),
  }),
);

const studentOf = (email: string) =>
  t.sandbox.inspect.licenses({}).find((l) => l.active && l.student.email === email)?.student;
const auditPosts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === AUDIT);
const postText = (c: SlackCall) => allText(c.args.blocks);
/** The audit post whose text holds every one of `words`. */
const auditPost = (...words: string[]) =>
  t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === AUDIT && words.every((w) => postText(c).includes(w)),
    10_000,
  );

const click = (actionId: string, value: string, userId: string) =>
  clickInRequestsChannel(t, { channel: CHANNEL, ts: '1767225600.000400' }, actionId, value, userId);

/** `user` asks for `poolId` through the request form; the request id from the card's Approve button. */
async function requestFrom(user: string, poolId: string): Promise<string> {
  await t.viewSubmission({ view: requestFormView(`VNAME${user}`, poolId) }, { userId: user });
  const card = await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === CHANNEL && allText(c.args.blocks).includes(`<@${user}>`),
  );
  await waitForDm(t.slack, user, 'was received', { text: allText });
  return String(buttons(card.args).find((b) => b.action_id === RequestActionId.approve)?.value);
}

/** Nothing a person reads in the audit channel shows an escaped mention, a bare user id or a request id. */
function expectReadable(texts: string[], requestIds: string[]) {
  for (const text of texts) {
    expect(text).not.toContain('&lt;@');
    for (const id of requestIds) expect(text).not.toContain(id);
    expect(text.replace(/<@[UW][A-Z0-9]+>/g, '')).not.toMatch(/\bU0[A-Z0-9]{8}\b/);
  }
}

describe('the names License Desk sends and records', () => {
  const requestIds: string[] = [];

  it('an approved course request creates the student with their Slack name, and the records read as sentences', async () => {
    const id = await requestFrom(IVY.id, '2005');
    requestIds.push(id);
    const answer = await (await click(RequestActionId.approve, id, ADMIN)).waitForResponse();
    expect(allText(answer.body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    expect(studentOf(IVY.email)?.name).toBe('Ivy Delacroix');

    const requested = await auditPost(`<@${IVY.id}> requested a license for *Power Query Fundamentals*`);
    expect(postText(requested)).toContain('asked with /licenses request');
    const assigned = await auditPost(`<@${ADMIN}> assigned license`, '*Ivy Delacroix*');
    expect(postText(assigned)).toContain(`(course request of <@${IVY.id}>)`);
    await auditPost(`<@${ADMIN}> approved <@${IVY.id}>’s request for *Power Query Fundamentals*`);
    expectReadable(auditPosts().map(postText), requestIds);
    // The request's id stays in the log line, for whoever traces it.
    expect(t.logs.some((l) => l.message === 'audit' && l.action === 'approved' && l.requestId === id)).toBe(true);
  });

  it('a request stored before License Desk kept names gets the requester’s Slack name at the approval', async () => {
    const legacy = sampleRequest('r0a1b2c3d4e5f');
    expect(legacy.requesterName).toBeUndefined();
    await t.deps.requests?.store.put(legacy);
    requestIds.push(legacy.id);
    const answer = await (await click(RequestActionId.approve, legacy.id, ADMIN)).waitForResponse();
    expect(allText(answer.body.blocks)).toMatch(/Approved: license `\d+` assigned/);
    expect(studentOf(legacy.requesterEmail)?.name).toBe('Nora Quinn');
  });

  it('the waitlist gives a freed seat with the requester’s Slack name, and says so in the channel', async () => {
    const id = await requestFrom(OLA.id, '2003');
    requestIds.push(id);
    await (await click(RequestActionId.approve, id, ADMIN)).waitForResponse();
    const added = await (await click(RequestActionId.waitlist, id, ADMIN)).waitForResponse();
    expect(allText(added.body.blocks)).toContain('On the waitlist, number 1');
    await auditPost(`<@${ADMIN}> put <@${OLA.id}>’s request for *Optimizing DAX* on the waitlist (number 1 in line)`);
    const told = waitForDm(t.slack, OLA.id, 'it is yours', { text: allText, timeoutMs: 10_000 });
    const seat = t.sandbox.inspect
      .licenses({ poolId: '2003' })
      .find((l) => l.active && l.revokable && l.student.email !== OLA.email);
    await t.clickButton(ChangeActionId.revokeConfirm, String(seat?.id));
    await told;
    expect(studentOf(OLA.email)?.name).toBe('Ola Nowak');
    await auditPost(`<@${OLA.id}>’s request for *Optimizing DAX* got license`, `approved by <@${ADMIN}>`);
    expectReadable(auditPosts().map(postText), requestIds);
  });

  it('“Free a seat…” for a request opens the assign form with the requester’s Slack name filled in', async () => {
    const id = await requestFrom(RIA.id, '2003');
    requestIds.push(id);
    const full = await (await click(RequestActionId.approve, id, ADMIN)).waitForResponse();
    expect(allText(full.body.blocks)).toContain('is full');
    await click(RequestActionId.recycle, id, ADMIN);
    const form = await t.slack.waitForCall(
      'views.update',
      (c) =>
        (c.args.view as { callback_id?: string }).callback_id === CallbackId.assignForm &&
        JSON.stringify(c.args.view).includes(RIA.email),
    );
    const nameInput = (
      form.args.view as { blocks: { block_id?: string; element?: { initial_value?: string } }[] }
    ).blocks.find((b) => b.block_id === InputId.assignName.block);
    expect(nameInput?.element?.initial_value).toBe('Ria Recycler');
  });

  it('the assign form sends a picked member’s Slack name, and a typed name wins', async () => {
    const picked = await openModal(t, () => t.command('assign 2001'));
    expect(picked.callback_id).toBe(CallbackId.assignForm);
    const from = t.slack.calls.length;
    const { ack } = await submit(t, picked, assignState({ pool: '2001', user: PIM.id }));
    expect(ack.response_action).toBe('update');
    await settledView(t, picked.id, from);
    expect(studentOf(PIM.email)?.name).toBe('Pim van Dijk');

    const typed = await openModal(t, () => t.command('assign 2001'));
    const from2 = t.slack.calls.length;
    await submit(t, typed, assignState({ pool: '2001', user: TYP.id, name: 'Tess Typed' }));
    await settledView(t, typed.id, from2);
    expect(studentOf(TYP.email)?.name).toBe('Tess Typed');
    await auditPost(`<@${ADMIN}> assigned license`, 'to *Tess Typed*');
  });

  it('an e-mail typed in the assign form that belongs to a Slack member gets their Slack name', async () => {
    const view = await openModal(t, () => t.command('assign 2001'));
    const from = t.slack.calls.length;
    await submit(t, view, assignState({ pool: '2001', email: EMA.email, name: null }));
    await settledView(t, view.id, from);
    expect(studentOf(EMA.email)?.name).toBe('Ema Mailwright');
    await auditPost(`<@${ADMIN}> assigned license`, 'to *Ema Mailwright*');
  });

  it('an end-date change is recorded with the date it replaced', async () => {
    const before = t.sandbox.inspect.license('4002')?.end.slice(0, 10);
    const view = await openModal(t, () => t.command('extend 4002'));
    const from = t.slack.calls.length;
    await submit(t, view, extendState({ date: day(20) }));
    await settledView(t, view.id, from);
    const post = await auditPost(`<@${ADMIN}> changed the end date of`, 'license `4002`');
    expect(postText(post)).toContain(`from ${dayText(before ?? '')} to ${dayText(day(20))}`);
    const line = t.logs.find((l) => l.message === 'audit' && l.action === 'extend' && l.licenseId === '4002');
    expect(line).toMatchObject({ previousEndDate: before, endDate: day(20) });
  });

  it('App Home’s recent changes say who did what to whom', async () => {
    const before = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user: ADMIN, channel: 'D0HOME0009', tab: 'home' });
    const home = await t.slack.waitForCall(
      'views.publish',
      (c) =>
        t.slack.calls.indexOf(c) >= before &&
        c.args.user_id === ADMIN &&
        allText(c.args.view).includes('Recent changes') &&
        !allText(c.args.view).includes('Refreshing'),
      10_000,
    );
    const text = allText(home.args.view);
    // The last eight changes, newest first.
    expect(text).toContain(`<@${ADMIN}> approved <@${RIA.id}>’s request for *Optimizing DAX*`);
    expect(text).toContain(`<@${RIA.id}> requested a license for *Optimizing DAX*`);
    expect(text).toContain(`<@${OLA.id}>’s request for *Optimizing DAX* got license`);
    expect(text).toContain('to *Pim van Dijk*');
    expect(text).toMatch(
      /changed the end date of license `4002` of \*[^*]+\* for \*[^*]+\* from [A-Z][a-z]{2} \d{1,2}, \d{4} to/,
    );
    // No sentence left hanging: "request of ·", "for ·", "waitlist ·".
    expect(text).not.toMatch(/ (of|for|waitlist|assigned|assign) ·/);
    expect(text).not.toMatch(/@contoso\.com/);
    expectReadable([text], requestIds);
  });
});
