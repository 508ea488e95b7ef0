/**
 * An ask for more time goes where a course request's card goes: to the approvers of its pool, here
 * in the requests channel naming them; while the pool's admin is away, naming their delegate, who may
 * decide it once an owner said yes. Signed requests in, the fake Slack and the sandbox out.
 */
import { describe, expect, it } from 'vitest';
import {
  ApproverActionId,
  ApproverCallbackId,
  ApproverInputId,
  ExtensionActionId,
} from '../../src/kernel/blocks/ids.js';
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { movableClock } from '../support/clock.js';
import { waitForDm } from '../support/dms.js';
import { slackMember } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { emailOf, moreTimeFlow } from '../support/more-time.js';
import { selfServiceTo } from '../support/requests.js';

const CHANNEL = 'C0REQAPPR1';
const OWNER = TEST_USERS.admin;
const POOL_ADMIN = 'U0POOLADM2';
const DELEGATE = 'U0DELEGAT2';
/** 4012: Mastering DAX, pool 2001; its holder asks for more time. */
const LEARNER = { id: 'U0LEARNAP1', license: '4012' };

const clock = movableClock();
const t = appPerFile('approvers-more-time-', () =>
  startTestApp({
    now: clock.now,
    admins: [OWNER],
    slack: {
      users: [
        slackMember(POOL_ADMIN, 'pia.pool'),
        slackMember(DELEGATE, 'dan.delegate'),
        { id: LEARNER.id, name: 'lea.learner', email: emailOf(LEARNER.license) },
      ],
    },
    ...selfServiceTo(CHANNEL),
  }).then((app: TestApp) => {
    // The test resolver: pool 2001 has an admin of its own.
    const roles = app.deps.roles;
    const roleOf = roles.roleOf.bind(roles);
    const owners = roles.adminRecipients?.bind(roles);
    roles.roleOf = async (client, user) => (user === POOL_ADMIN ? 'admin' : roleOf(client, user));
    roles.scopeOf = async (_client, user) => (user === POOL_ADMIN ? poolsScope(['2001']) : EVERY_POOL);
    roles.approversOf = async (client, poolId) => (poolId === '2001' ? [POOL_ADMIN] : ((await owners?.(client)) ?? []));
    return app;
  }),
);

const { day, askFor, send, cardFor, clickCard } = moreTimeFlow(t, CHANNEL, clock.now);

describe('an ask for more time goes to the approvers of its pool', () => {
  it('names the pool’s admin, or their delegate once an owner said yes; the delegate may decide it', async () => {
    const away = {
      id: 'VAWAYAPPR1',
      callback_id: ApproverCallbackId.awayForm,
      state: {
        values: {
          [ApproverInputId.from.block]: {
            [ApproverInputId.from.action]: { type: 'datepicker', selected_date: day(0) },
          },
          [ApproverInputId.until.block]: {
            [ApproverInputId.until.action]: { type: 'datepicker', selected_date: day(5) },
          },
          [ApproverInputId.delegate.block]: {
            [ApproverInputId.delegate.action]: { type: 'users_select', selected_user: DELEGATE },
          },
        },
      },
    };
    await t.viewSubmission({ view: away }, { userId: POOL_ADMIN });
    const asked = await waitForDm(t.slack, OWNER, 'asks that their approval cards go to');
    const id = String(buttons(asked.args).find((b) => b.action_id === ApproverActionId.accept)?.value);
    await (await t.clickButton(ApproverActionId.accept, id, { userId: OWNER })).waitForResponse();
    await waitForDm(t.slack, DELEGATE, 'their course request cards come to you');

    const form = await askFor(LEARNER.id, LEARNER.license);
    await send(LEARNER.id, form, day(60), 'Exams');
    const { call, id: askId } = await cardFor(LEARNER.id);
    expect(textOf(call.args.blocks)).toContain(`For <@${DELEGATE}> (for <@${POOL_ADMIN}>)`);
    const outsider = await (await clickCard(ExtensionActionId.approve, askId, TEST_USERS.nobody)).waitForResponse();
    expect(textOf(outsider.body.blocks)).toContain('Only license admins can change licenses');
    const decided = await (await clickCard(ExtensionActionId.approve, askId, DELEGATE)).waitForResponse();
    expect(textOf(decided.body.blocks)).toContain('now ends on');
    await waitForDm(t.slack, LEARNER.id, 'You have more time');
  });
});
