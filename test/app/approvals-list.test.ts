/**
 * `/licenses approvals` with many waiting: the signed command is acked, the modal opens with a loading
 * view and then the first page (oldest first, groups of one pool and at most ten, each with its pool's
 * free seats, within Block Kit's limits); Previous / Next keep the ticks across pages; an admin whose
 * role covers one pool (a test resolver's scopeOf) sees only that pool's requests; non-admins see none.
 */
import { describe, expect, it } from 'vitest';
import { decodeSelection } from '../../src/approvals/domain/selection.js';
import { checkModalLimits } from '../../src/kernel/blocks/limits.js';
import { EVERY_POOL, poolsScope } from '../../src/kernel/domain/scope.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  clickInView,
  LIST,
  NEXT,
  PREVIOUS,
  putWaiting,
  requestIdOf,
  shownIds,
  tickedIds,
  viewWith,
  waitingRequest,
} from '../support/approvals.js';
import { selfServiceTo } from '../support/requests.js';

const POOL_ADMIN = 'U0POOLADM1';
const t = appPerFile('approvals-list-', (dataDir) =>
  startTestApp({
    dataDir,
    admins: [TEST_USERS.admin, POOL_ADMIN],
    slack: { users: [{ id: POOL_ADMIN, name: 'pia.pool', email: 'pia.pool@contoso.com' }] },
    ...selfServiceTo(),
  }),
);

const who = (n: number) => ({
  id: `U0REQ${String(n).padStart(5, '0')}`,
  email: `req${n}@contoso.com`,
  name: `Req ${n}`,
});
/** 130 waiting: every fourth for pool 2005, the rest for 2002 and 2007 in turn. */
const WAITING = Array.from({ length: 130 }, (_, i) =>
  waitingRequest(i + 1, i % 4 === 3 ? '2005' : i % 2 === 0 ? '2002' : '2007', who(i + 1)),
);

describe('/licenses approvals', () => {
  it('opens within the ack with a loading view, then the first page oldest first with each pool’s free seats', async () => {
    await putWaiting(t, WAITING);
    const before = t.slack.calls.length;
    const asked = await t.command('approvals', { userId: TEST_USERS.admin });
    expect(asked.status).toBe(200);
    expect(asked.body).toBe('');
    const list = await viewWith(t, LIST, 'page 1 of 4', before);
    const opened = t.slack.calls.slice(before).find((c) => c.method === 'views.open');
    expect(JSON.stringify(opened?.args.view)).toContain('Reading the requests waiting');
    const text = JSON.stringify(list.blocks);
    expect(text).toContain('130 requests waiting');
    expect(text).toContain('*Mastering DAX* · pool 2002 — 3 free seats');
    expect(text).toContain('*Power Query Fundamentals* · pool 2005 — 2 free seats');
    expect(shownIds(list)).toEqual(WAITING.slice(0, 40).map((r) => r.id));
    expect(checkModalLimits(list)).toEqual([]);
    // Each pool's seats come from one read of the pools, not one per request.
    const poolReads = t.sandbox.requests.filter((r) => r.method === 'GET' && r.url.startsWith('/v1/pool'));
    expect(poolReads.length).toBeLessThanOrEqual(2);
  });

  it('pages past 100 waiting and keeps the ticks across pages', async () => {
    const before = t.slack.calls.length;
    await t.command('approvals', { userId: TEST_USERS.admin });
    const first = await viewWith(t, LIST, 'page 1 of 4', before);
    const onFirst = [requestIdOf(1), requestIdOf(12)];
    await clickInView(t, first, { actionId: NEXT, value: '1' }, TEST_USERS.admin, onFirst);
    const second = await viewWith(t, LIST, 'page 2 of 4', before);
    expect(shownIds(second)).toEqual(WAITING.slice(40, 80).map((r) => r.id));
    expect(JSON.stringify(second.blocks)).toContain('2 selected');
    expect(checkModalLimits(second)).toEqual([]);
    await clickInView(t, second, { actionId: NEXT, value: '3' }, TEST_USERS.admin, [requestIdOf(41)]);
    const last = await viewWith(t, LIST, 'page 4 of 4', before);
    expect(shownIds(last)).toEqual(WAITING.slice(120).map((r) => r.id));
    const after = t.slack.calls.length;
    await clickInView(t, last, { actionId: PREVIOUS, value: '0' }, TEST_USERS.admin, [requestIdOf(130)]);
    const back = await viewWith(t, LIST, 'page 1 of 4', after);
    expect(tickedIds(back).sort()).toEqual(onFirst.sort());
    expect(JSON.stringify(back.blocks)).toContain('4 selected');
    expect(decodeSelection(back.private_metadata)?.ids.sort()).toEqual(
      [...onFirst, requestIdOf(41), requestIdOf(130)].sort(),
    );
  });

  it('a pool admin sees only the requests of their pools', async () => {
    t.deps.roles.scopeOf = async (_client, userId) => (userId === POOL_ADMIN ? poolsScope(['2005']) : EVERY_POOL);
    try {
      const before = t.slack.calls.length;
      await t.command('approvals', { userId: POOL_ADMIN });
      const list = await viewWith(t, LIST, 'requests waiting', before);
      const forPool = WAITING.filter((r) => r.poolId === '2005');
      expect(JSON.stringify(list.blocks)).toContain(`${forPool.length} requests waiting`);
      expect(shownIds(list)).toEqual(forPool.map((r) => r.id));
      expect(JSON.stringify(list.blocks)).not.toContain('pool 2002');
    } finally {
      delete t.deps.roles.scopeOf;
    }
  });

  it('keeps at most 200 ticks, and says so when a page’s ticks go past them', async () => {
    await putWaiting(
      t,
      Array.from({ length: 100 }, (_, i) => waitingRequest(131 + i, '2002', who(131 + i))),
    );
    const before = t.slack.calls.length;
    await t.command('approvals', { userId: TEST_USERS.admin });
    let view = await viewWith(t, LIST, 'page 1 of 6', before);
    for (let page = 0; page < 5; page++) {
      const after = t.slack.calls.length;
      await clickInView(t, view, { actionId: NEXT, value: String(page + 1) }, TEST_USERS.admin, shownIds(view));
      view = await viewWith(t, LIST, `page ${page + 2} of 6`, after);
    }
    expect(JSON.stringify(view.blocks)).toContain('200 selected');
    const after = t.slack.calls.length;
    await clickInView(t, view, { actionId: PREVIOUS, value: '4' }, TEST_USERS.admin, shownIds(view));
    const back = await viewWith(t, LIST, 'page 5 of 6', after);
    expect(JSON.stringify(back.blocks)).toContain('the last 30 ticked on that page were not kept');
    expect(decodeSelection(back.private_metadata)?.ids).toHaveLength(200);
    expect(checkModalLimits(back)).toEqual([]);
  });

  it('a viewer or a member gets no list', async () => {
    for (const user of [TEST_USERS.viewer, TEST_USERS.nobody]) {
      const before = t.slack.calls.length;
      const asked = await t.command('approvals', { userId: user });
      const answer = await asked.waitForResponse();
      expect(JSON.stringify(answer.body)).toMatch(/Only license admins|don't have access/);
      await t.settled();
      expect(t.slack.calls.slice(before).some((c) => c.method === 'views.open')).toBe(false);
    }
  });
});
