/**
 * Learning progress end to end: the sandbox holds known progress for three holders of the full,
 * transferable pool 2003; daily passes read it through the licensing client; then the signed
 * `/licenses pool 2003` says who has not started, who has made no progress since when and who
 * completed, App Home counts them and offers "Return this seat" for the completed one, and returning
 * it (the revoke confirmation, by DM, then "Revoke now") revokes once and gives the seat to the first
 * approved request on the waitlist.
 */
import { describe, expect, it } from 'vitest';
import { DeskActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { dayOf, dayText } from '../../src/kernel/domain/end-date.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { parseCsv } from '../support/csv.js';
import { allText, buttons } from '../support/fixtures.js';
import { clickReturnSeat, openHome, progressPassOn } from '../support/progress.js';
import { waitingForPool2003 } from '../support/requests.js';
import { until } from '../support/until.js';

const POOL = '2003';
const COURSE = '302';
const WAITER = { id: 'U0WAIT0001', email: 'wendy.wait@contoso.com' };
const clock = { t: Date.now() };
const now = () => new Date(clock.t);

const t = appPerFile('desk-progress-', (dataDir) =>
  startTestApp({
    dataDir,
    now,
    slack: { users: [{ id: WAITER.id, name: 'wendy.wait', email: WAITER.email }] },
    waitlist: { offers: { hours: 0 } },
  }),
);

const pass = () => progressPassOn(t, now);

/** "Return this seat" clicked on App Home (no response_url). */
const clickReturn = (licenseId: string) => clickReturnSeat(t, licenseId);

/** The admin's App Home as published with `line` on top, once its pools were read again. */
const homeSays = (line: string) =>
  t.slack.waitForCall(
    'views.publish',
    (c) =>
      c.args.user_id === TEST_USERS.admin &&
      allText(c.args.view).includes(line) &&
      !allText(c.args.view).includes('Refreshing'),
    10_000,
  );

describe('learning progress', () => {
  it('a pass records it; the pool view, App Home and "Return this seat" use it; the returned seat goes to the waitlist', async () => {
    const holders = t.sandbox.inspect.licenses({ poolId: POOL }).filter((l) => l.active);
    // Three holders whose licenses run well past the 32 days this test moves the clock.
    const [idle, slow, done] = holders.filter((l) => Date.parse(l.end) > clock.t + 60 * DAY_MS);
    if (!idle || !slow || !done) throw new Error('the demo seed changed: pool 2003 needs three long licenses');
    const set = (email: string, progress: number, completed: string | null = null) =>
      t.sandbox.setProgress?.({ email }, COURSE, { progress, completed });
    set(idle.student.email, 0);
    set(slow.student.email, 30);
    set(done.student.email, 80);
    expect(await pass().run()).toMatchObject({ kind: 'done' });

    // A day later: the slow one moved a little, the third finished.
    clock.t += DAY_MS;
    const day1 = now().toISOString();
    set(slow.student.email, 35);
    const completedAt = new Date(clock.t - 3_600_000).toISOString().replace('Z', '+00:00');
    set(done.student.email, 100, completedAt);
    expect(await pass().run()).toMatchObject({ kind: 'done', changed: 2 });
    expect(await pass().run()).toMatchObject({ kind: 'not-due' });

    // A month on, nothing more happened.
    clock.t += 31 * DAY_MS;
    const shown = await (await t.command(`pool ${POOL}`)).waitForResponse((p) =>
      allText(p.body.blocks).includes('Licenses ·'),
    );
    const rowOf = (licenseId: string) =>
      (shown.body.blocks as { text?: { text: string } }[])
        .map((b) => b.text?.text ?? '')
        .find((text) => text.includes(`license \`${licenseId}\``)) ?? '';
    expect(rowOf(idle.id)).toMatch(/Not started after \d+ days/);
    expect(rowOf(slow.id)).toContain(`35 % · no progress since ${dayText(day1)}`);
    expect(rowOf(done.id)).toContain(`Completed ${dayText(completedAt)}`);

    // The export's last column: the day the last change was seen; empty for a holder never seen to change.
    const uploadsBefore = t.slack.uploads.length;
    const exported = await t.command(`export ${POOL}`);
    await exported.waitForResponse((p) => !String(p.body.text).includes('Working on it'), 15_000);
    await until('the export uploaded', () => t.slack.uploads.length > uploadsBefore, 15_000);
    const rows = parseCsv(t.slack.uploads.at(-1)?.content ?? '');
    const column = rows[0]?.indexOf('last progress') ?? -1;
    expect(column).toBe(rows[0]?.length ? rows[0].length - 1 : -2);
    const lastOf = (licenseId: string) => rows.find((r) => r[4] === licenseId)?.[column];
    expect(lastOf(slow.id)).toBe(dayOf(day1));
    expect(lastOf(idle.id)).toBe('');

    // App Home: the pool's counts, and "Return this seat" for the finished course.
    const home = await openHome(t, TEST_USERS.admin);
    expect(checkBlockKitLimits(home.args.view as { type: string }, 'view')).toEqual([]);
    const homeText = allText(home.args.view);
    expect(homeText).toMatch(/\d+ not started · \d+ stalled · \d+ completed/);
    const returns = buttons(home.args.view).filter((b) => b.action_id === DeskActionId.returnSeat);
    expect(returns.map((b) => b.value)).toContain(done.id);
    // A viewer sees the counts, never the button.
    const viewerHome = await openHome(t, TEST_USERS.viewer);
    expect(buttons(viewerHome.args.view).some((b) => b.action_id === DeskActionId.returnSeat)).toBe(false);

    // The digest names the finished holder among the seats that could be given again.
    const digestNames = async () =>
      allText(
        (await (await t.command('digest')).waitForResponse((p) => allText(p.body.blocks).includes('License digest')))
          .body.blocks,
      );
    const finishedSection = (text: string) => text.slice(text.indexOf('Completed in transferable pools ('));
    expect(finishedSection(await digestNames())).toContain(done.student.email);

    // The first approved request waiting for the full pool.
    await waitingForPool2003(t, 'R1', WAITER, now());

    // Return this seat (App Home has no response_url): the revoke confirmation comes by DM.
    const dmConfirm = t.slack.waitForCall(
      'chat.postMessage',
      (c) => c.args.channel === `D${TEST_USERS.admin.slice(1)}` && allText(c.args.blocks).includes('Revoke license'),
      10_000,
    );
    await clickReturn(done.id);
    const confirmation = await dmConfirm;
    expect(allText(confirmation.args.blocks)).toContain('first person on its waitlist (1 waits)');
    expect(buttons(confirmation.args).map((b) => [b.action_id, b.value])).toContainEqual([
      DeskActionId.returnSeatConfirm,
      done.id,
    ]);
    // Home says where the return stands: the confirmation waits in the DM.
    const seat = `*Optimizing DAX* of *${done.student.name}*`;
    await homeSays(`Confirm the return of ${seat} in your DM with License Desk.`);
    t.sandbox.clearRequests();
    const clicked = await t.clickButton(DeskActionId.returnSeatConfirm, done.id);
    const answer = allText(
      (await clicked.waitForResponse((p) => allText(p.body.blocks).includes('Revoked'))).body.blocks,
    );
    expect(answer).toContain(`The seat went to <@${WAITER.id}> from the waitlist`);
    // Revoked once; the seat assigned to the waiting requester.
    expect(t.sandbox.requests.filter((r) => r.method === 'DELETE').map((r) => r.url)).toEqual([
      `/v1/license/${done.id}`,
    ]);
    expect(t.sandbox.inspect.license(done.id)?.active).toBe(false);
    expect(t.sandbox.inspect.licenses({ poolId: POOL }).some((l) => l.active && l.student.email === WAITER.email)).toBe(
      true,
    );
    // App Home is published again: the outcome on top, and the seat no longer listed to give back.
    const after = await homeSays(`Returned ${seat} — the seat went to <@${WAITER.id}> from the waitlist.`);
    expect(
      buttons(after.args.view)
        .filter((b) => b.action_id === DeskActionId.returnSeat)
        .map((b) => b.value),
    ).not.toContain(done.id);
    // Opened again later, Home no longer says it (once), and still does not list the seat.
    const reopened = await openHome(t, TEST_USERS.admin);
    expect(allText(reopened.args.view)).not.toContain('Returned ');
    expect(buttons(reopened.args.view).map((b) => b.value)).not.toContain(done.id);
    // The digest no longer counts the returned holder.
    expect(finishedSection(await digestNames())).not.toContain(done.student.email);
    // A second click on the same confirmation changes nothing.
    await t.clickButton(DeskActionId.returnSeatConfirm, done.id, { responseId: clicked.responseId });
    await t.settled();
    expect(t.sandbox.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);
    // A Return of the ended license (an old Home) is refused on Home too, once.
    await clickReturn(done.id);
    await homeSays(`Nothing to return: license \`${done.id}\` (${seat}) can't be revoked: it is no longer active.`);
  });
});
