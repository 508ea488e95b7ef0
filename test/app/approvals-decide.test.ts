/**
 * Approve selected and Deny selected end to end: signed clicks and submissions in, the sandbox's
 * licensing calls and the fake Slack's DMs out. Each approval is the single approval's own (one
 * assign each, its requester told once); a pool with fewer free seats than requests gives its seats
 * to the oldest and sends the rest to the waitlist, as the confirmation said; a request decided
 * meanwhile is skipped; a forged submit (a viewer, or an admin outside the request's pool) changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { ApprovalsCallbackId, ApprovalsInputId } from '../../src/kernel/blocks/ids.js';
import { checkModalLimits } from '../../src/kernel/blocks/limits.js';
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import type { CourseRequest } from '../../src/requests/domain/requests.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  APPROVE,
  clickInView,
  DENY,
  LIST,
  putWaiting,
  type ShownView,
  viewWith,
  waitingRequest,
} from '../support/approvals.js';
import { textOf } from '../support/change-flow.js';
import { dmChannel, waitForDm } from '../support/dms.js';
import { selfServiceTo } from '../support/requests.js';

const ADMIN: string = TEST_USERS.admin;
const OTHER_ADMIN = TEST_USERS.workspaceAdmin;
const POOL_ADMIN = 'U0POOLADM1';
const people = Array.from({ length: 12 }, (_, i) => ({
  id: `U0ASK${String(i + 1).padStart(5, '0')}`,
  name: `asker.${i + 1}`,
  email: `asker.${i + 1}@contoso.com`,
}));

const t = appPerFile('approvals-decide-', (dataDir) =>
  startTestApp({
    dataDir,
    admins: [ADMIN, OTHER_ADMIN, POOL_ADMIN],
    slack: { users: [...people, { id: POOL_ADMIN, name: 'pia.pool', email: 'pia.pool@contoso.com' }] },
    ...selfServiceTo(),
  }),
);

/** The `i`th of `list`, which the test made. */
function at<T>(list: readonly T[], i: number): T {
  const item = list[i];
  if (item === undefined) throw new Error(`no item ${i}`);
  return item;
}

let n = 0;
/** `count` new requests waiting for `poolId`, each of another person, oldest first. */
async function waiting(poolId: string, count: number): Promise<CourseRequest[]> {
  const made = Array.from({ length: count }, () => {
    n += 1;
    return waitingRequest(n, poolId, { ...at(people, (n - 1) % people.length), name: `Asker ${n}` });
  });
  await putWaiting(t, made);
  return made;
}

const stored = (id: string) => t.selfService?.store.get(id);
const assigns = (poolId: string) =>
  t.sandbox.requests.filter((r) => r.method === 'POST' && r.url.startsWith(`/v1/pool/${poolId}/license`));

/** The list opened by `user`, `ids` ticked, a click on Approve or Deny selected: the confirmation pushed over it. */
async function confirmationFor(ids: readonly string[], which: 'approve' | 'deny', user = ADMIN) {
  const before = t.slack.calls.length;
  await t.command('approvals', { userId: user });
  const list = await viewWith(t, LIST, 'waiting', before);
  await clickInView(t, list, { actionId: which === 'approve' ? APPROVE : DENY, value: which }, user, ids);
  const callback = which === 'approve' ? ApprovalsCallbackId.confirmApprove : ApprovalsCallbackId.confirmDeny;
  const confirm = await viewWith(t, callback, `${ids.length}`, before);
  expect(t.slack.calls.slice(before).some((c) => c.method === 'views.push')).toBe(true);
  expect(checkModalLimits(confirm)).toEqual([]);
  return confirm;
}

function submit(view: ShownView, user = ADMIN, reason?: string) {
  const values =
    reason === undefined
      ? {}
      : {
          [ApprovalsInputId.denyReason.block]: {
            [ApprovalsInputId.denyReason.action]: { type: 'plain_text_input', value: reason },
          },
        };
  return t.viewSubmission(
    {
      view: { id: view.id, callback_id: view.callback_id, private_metadata: view.private_metadata, state: { values } },
    },
    { userId: user },
  );
}

/** The admin's progress DM once it says the run ended with `words`. */
function finished(words: string) {
  const after = t.slack.calls.length;
  return {
    done: () =>
      t.slack.waitForCall(
        'chat.update',
        (c) =>
          t.slack.calls.indexOf(c) >= after &&
          c.args.channel === dmChannel(ADMIN) &&
          textOf(c.args.blocks).includes(words),
        15_000,
      ),
  };
}

const dmsTo = (user: string, words: string) =>
  t.slack.calls.filter(
    (c) =>
      c.method === 'chat.postMessage' && c.args.channel === dmChannel(user) && textOf(c.args.blocks).includes(words),
  );

describe('Approve selected', () => {
  it('assigns one license per request through the single approval, each requester told once', async () => {
    const asked = await waiting('2007', 3);
    const ids = asked.map((r) => r.id);
    const confirm = await confirmationFor(ids, 'approve');
    expect(textOf(confirm.blocks)).toContain('Approve *3 requests* in 1 pool?');
    const before = assigns('2007').length;
    const end = finished('Approved selected');
    const ack = await submit(confirm);
    expect(ack.status).toBe(200);
    expect(ack.body).toContain('Approving 3 requests in the background');
    const done = await end.done();
    expect(textOf(done.args.blocks)).toContain('3 assigned');
    expect(assigns('2007').length - before).toBe(3);
    for (const r of asked) {
      expect((await stored(r.id))?.status).toBe('assigned');
      await waitForDm(t.slack, r.requester, 'is yours');
    }
    await t.outbox?.flush();
    await t.settled();
    for (const r of asked) expect(dmsTo(r.requester, 'is yours')).toHaveLength(1);
    const licenses = t.sandbox.inspect.licenses({ poolId: '2007' });
    for (const r of asked) expect(licenses.filter((l) => l.student.email === r.requesterEmail)).toHaveLength(1);
  });

  it('says what happens in a pool with fewer free seats, and does it: the oldest assigned, the rest on the waitlist', async () => {
    const asked = await waiting('2005', 3);
    const confirm = await confirmationFor(
      asked.map((r) => r.id),
      'approve',
    );
    expect(textOf(confirm.blocks)).toContain(
      'Pool 2005 (Power Query Fundamentals) has 2 free seats for 3 requests: the 2 oldest are assigned, the other 1 goes to the waitlist.',
    );
    const end = finished('Approved selected: 3 of 3');
    await submit(confirm);
    const done = await end.done();
    expect(textOf(done.args.blocks)).toContain('2 assigned · 1 put on the waitlist');
    expect((await stored(at(asked, 0).id))?.status).toBe('assigned');
    expect((await stored(at(asked, 1).id))?.status).toBe('assigned');
    expect((await stored(at(asked, 2).id))?.status).toBe('waitlisted');
  });

  it('skips a request someone else decided meanwhile, and counts it', async () => {
    const asked = await waiting('2007', 2);
    const confirm = await confirmationFor(
      asked.map((r) => r.id),
      'approve',
    );
    await t.selfService?.requests.service.deny(at(asked, 0).id, OTHER_ADMIN, 'Not this quarter');
    const end = finished('Approved selected: 2 of 2');
    await submit(confirm);
    const done = await end.done();
    expect(textOf(done.args.blocks)).toContain('1 assigned');
    expect(textOf(done.args.blocks)).toContain('1 skipped (decided meanwhile)');
    expect((await stored(at(asked, 0).id))?.status).toBe('denied');
    expect((await stored(at(asked, 1).id))?.status).toBe('assigned');
  });
});

describe('Deny selected', () => {
  it('asks for one reason and denies each, its requester told with it', async () => {
    const asked = await waiting('2002', 2);
    const form = await confirmationFor(
      asked.map((r) => r.id),
      'deny',
    );
    const empty = await submit(form, ADMIN, '');
    expect(empty.body).toContain('Please give a reason');
    expect((await stored(at(asked, 0).id))?.status).toBe('pending');
    const end = finished('Denied selected: 2 of 2');
    await submit(form, ADMIN, 'Budget is frozen until January');
    await end.done();
    for (const r of asked) {
      expect((await stored(r.id))?.status).toBe('denied');
      await waitForDm(t.slack, r.requester, 'Budget is frozen until January');
    }
  });
});

describe('a forged submit', () => {
  it('by a viewer is refused and changes nothing', async () => {
    const asked = await waiting('2007', 1);
    const confirm = await confirmationFor([at(asked, 0).id], 'approve');
    const before = assigns('2007').length;
    const ack = await submit(confirm, TEST_USERS.viewer);
    expect(ack.body).toMatch(/Only license admins/);
    await t.settled();
    expect((await stored(at(asked, 0).id))?.status).toBe('pending');
    expect(assigns('2007').length).toBe(before);
  });

  it('by an admin whose pools do not include a selected request is refused whole and changes nothing', async () => {
    const mine = at(await waiting('2002', 1), 0);
    const theirs = at(await waiting('2007', 1), 0);
    const confirm = await confirmationFor([mine.id, theirs.id], 'approve');
    t.deps.roles.scopeOf = async (_client, userId) => (userId === POOL_ADMIN ? poolsScope(['2002']) : EVERY_POOL);
    try {
      const ack = await submit(confirm, POOL_ADMIN);
      expect(ack.body).toContain('for pools outside yours, so nothing was decided');
      await t.settled();
      expect((await stored(mine.id))?.status).toBe('pending');
      expect((await stored(theirs.id))?.status).toBe('pending');
      const refused = t.logs.filter((l) => l.message === 'audit' && l.outcome === 'refused' && l.actor === POOL_ADMIN);
      expect(refused.length).toBeGreaterThan(0);
    } finally {
      delete t.deps.roles.scopeOf;
    }
  });
});
