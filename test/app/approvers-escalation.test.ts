/**
 * Nothing waits unseen, end to end: an undecided request is escalated once (to REQUEST_ESCALATE_TO,
 * counted on business days only), its requester told once, under the existing reminder and expiry
 * check; and an approver who chose the daily list gets one "waiting for you" DM a day instead of a
 * card per request. The clock is set by the test and the jobs are ticked, never waited for.
 */
import { describe, expect, it } from 'vitest';
import { ApproverActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { parseBusinessDays } from '../../src/kernel/domain/business-hours.js';
import { requestTimers } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { settableClock } from '../support/clock.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { slackMember } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { requestFormView } from '../support/requests.js';

const OWNER = TEST_USERS.admin;
const BACKUP = 'U0BACKUP01';
const ASKER = 'U0ASKESC01';
const LATER = 'U0ASKESC02';
const HOUR = 3_600_000;

// Friday 22:00 UTC: the weekend does not count toward the 4 hours.
const clock = settableClock('2026-11-27T22:00:00.000Z');
const weekdays = { days: parseBusinessDays('mon-fri') as Set<number>, timeZone: 'UTC' };

const t = appPerFile('approvers-escalation-', (dataDir) =>
  startTestApp({
    now: clock.now,
    dataDir,
    admins: [OWNER],
    slack: {
      users: [slackMember(BACKUP, 'bo.backup'), slackMember(ASKER, 'ada.asks'), slackMember(LATER, 'lee.later')],
    },
    requests: { timers: requestTimers(24, 7, { hours: 4, calendar: weekdays }), escalateTo: [BACKUP] },
  }),
);

const postsTo = (user: string) =>
  t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === dmChannel(user));

async function ask(requester: string, poolId: string): Promise<void> {
  await t.viewSubmission({ view: requestFormView(`VREQ${requester}`, poolId) }, { userId: requester });
  await waitForDm(t.slack, requester, 'was received');
  await t.settled();
}

const tick = async () => {
  const result = await t.deps.requests?.check.tick();
  await t.outbox?.flush();
  return result;
};

describe('escalation and the daily list', () => {
  it('escalates an undecided request once, after 4 business hours, and tells its requester once', async () => {
    await ask(ASKER, '2005');
    expect(postsTo(BACKUP)).toHaveLength(0);
    // Saturday noon: 14 hours have passed, 2 of them on a business day.
    clock.c.t += 14 * HOUR;
    expect(await tick()).not.toHaveProperty('escalated');
    expect(postsTo(BACKUP)).toHaveLength(0);
    // Monday 02:00: 2 more business hours, 4 in all.
    clock.c.t += 38 * HOUR;
    expect(await tick()).toMatchObject({ escalated: 1 });
    const card = await waitForDm(t.slack, BACKUP, 'Escalated:');
    expect(textOf(card.args.blocks)).toContain(`<@${ASKER}>`);
    // The escalated card can be decided: it carries Approve and Deny….
    expect(buttons(card.args).map((b) => b.action_id)).toContain(RequestActionId.approve);
    await waitForDm(t.slack, ASKER, 'passed on to more approvers');
    // Told once: later checks escalate nothing more, and nobody hears of it again.
    const [backup, asker] = [postsTo(BACKUP).length, postsTo(ASKER).length];
    expect(await tick()).not.toHaveProperty('escalated');
    clock.c.t += HOUR;
    await tick();
    await t.settled();
    expect(postsTo(BACKUP)).toHaveLength(backup);
    expect(postsTo(ASKER)).toHaveLength(asker);
  });

  it('an approver who chose the daily list gets one DM a day instead of a card per request', async () => {
    // Monday 03:00: the owner turns the daily list on from App Home.
    await t.clickButton(ApproverActionId.dailyList, 'on', { userId: OWNER });
    await t.settled();
    const cardsBefore = postsTo(OWNER).length;
    await ask(LATER, '2002');
    // No card for this request: it waits for the daily list.
    expect(postsTo(OWNER)).toHaveLength(cardsBefore);
    // Before 09:00 (APPROVER_DAILY_LIST_TIME's default) nothing is sent.
    expect(await t.approvers?.tick()).toEqual({ sent: 0 });
    clock.c.t += 6 * HOUR;
    expect(await t.approvers?.tick()).toEqual({ sent: 1 });
    await t.outbox?.flush();
    const list = await waitForDm(t.slack, OWNER, 'Waiting for you');
    const text = textOf(list.args.blocks);
    expect(text).toContain(`<@${LATER}>`);
    expect(text).toContain(`<@${ASKER}>`);
    // Once a day: a second run the same day sends nothing; the next day, one more.
    expect(await t.approvers?.tick()).toEqual({ sent: 0 });
    clock.c.t += 24 * HOUR;
    expect(await t.approvers?.tick()).toEqual({ sent: 1 });
    await t.outbox?.flush();
    expect(postsTo(OWNER).filter((c) => textOf(c.args.blocks).includes('Waiting for you'))).toHaveLength(2);
  });
});
