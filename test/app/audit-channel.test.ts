/**
 * The audit channel under load: posts keep to Slack's pace for one channel, a burst of refusals by one
 * person becomes one post, a 429 is retried after its Retry-After, and nothing waiting is lost at stop.
 * The log line and the audit table's row are written at once, whatever happens to the post. The queue runs
 * on test-controlled timers (Slack's real pace: 1 s between posts, refusals folded over 5 s of quiet),
 * so nothing here waits in real time for a timer.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ActionId, ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { countAudit } from '../../src/kernel/db/audit.js';
import { openRecords, type Records } from '../../src/kernel/db/open.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { type ManualTimers, manualTimers } from '../support/manual-timers.js';
import { until } from '../support/until.js';

const AUDIT = 'C0AUDITLOAD';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'audit-channel-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

let t: TestApp;
let clock: ManualTimers;
let records: Records;
let seq = 0;
async function start() {
  clock = manualTimers();
  records = await openRecords({ dataDir: join(dir, `run-${++seq}`), heartbeatMs: 0 });
  t = await startTestApp({
    auditChannel: AUDIT,
    records,
    auditPosting: { paceMs: 1000, foldQuietMs: 5000, foldMaxMs: 60_000, timers: clock.timers },
  });
}
afterEach(async () => {
  await t.close();
  await records.close();
});

const posts = () => t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === AUDIT);
const auditLines = () => t.logs.filter((l) => l.message === 'audit');
const rows = () => countAudit(records.db);

const nthPost = (n: number) => t.slack.waitForCall('chat.postMessage', (c) => posts().indexOf(c) === n - 1);

describe('the audit channel', () => {
  it('30 refused Extend clicks by a viewer: 30 log lines and rows at once, one folded post', async () => {
    await start();
    await Promise.all(
      Array.from({ length: 30 }, () =>
        t.clickButton(ActionId.licenseChangeEndDate, '4001', { userId: TEST_USERS.viewer }),
      ),
    );
    await until('30 audit lines', () => auditLines().length === 30);
    await until('30 rows', async () => (await rows()) === 30);
    expect(auditLines().every((l) => l.outcome === 'refused' && l.action === 'extend' && l.licenseId === '4001')).toBe(
      true,
    );
    // The burst is still open (the clock has not moved): nothing was posted yet.
    expect(posts()).toHaveLength(0);

    clock.advance(5000);
    const post = await nthPost(1);
    const text = String(post.args.text);
    expect(text).toContain(
      `<@${TEST_USERS.viewer}> was refused 30 times in the last minute: extend license \`4001\` (30)`,
    );
    expect(JSON.stringify(post.args.blocks)).toContain('last reason: not a license admin');
    expect(checkBlockKitLimits({ text, blocks: post.args.blocks })).toEqual([]);
    expect((await t.audit.flush(1000))?.unsent).toBe(0);
    expect(posts()).toHaveLength(1);
  });

  it('changes are posted one a second, in order, however fast they come', async () => {
    await start();
    const licenses = ['4008', '4009', '4010'];
    await Promise.all(licenses.map((id) => t.clickButton(ChangeActionId.revokeConfirm, id)));
    await until('3 audit lines', () => auditLines().length === 3);
    await nthPost(1);
    // The next two wait for the pace; the clock decides, not the machine's speed.
    await until('the next post to be scheduled', () => clock.pending > 0);
    expect(posts()).toHaveLength(1);
    clock.advance(999);
    expect(posts()).toHaveLength(1);
    clock.advance(1);
    await nthPost(2);
    await until('the next post to be scheduled', () => clock.pending > 0);
    expect(posts()).toHaveLength(2);
    clock.advance(1000);
    await nthPost(3);
    const order = auditLines().map((l) => l.licenseId);
    expect(posts().map((c) => /license `(\d+)`/.exec(String(c.args.text))?.[1])).toEqual(order);
  });

  it('a 429 from Slack: the post is retried after Retry-After, not lost', async () => {
    await start();
    t.slack.answer('chat.postMessage', { status: 429, retryAfterSec: 3 }, 1);
    await t.clickButton(ChangeActionId.revokeConfirm, '4011');
    await until('the 429 to be seen', () => t.logs.some((l) => String(l.message).includes('Slack asked to slow down')));
    expect(auditLines()).toHaveLength(1);
    await until('the row', async () => (await rows()) === 1);
    expect(posts()).toHaveLength(1); // the refused attempt
    clock.advance(2999);
    expect(posts()).toHaveLength(1);
    clock.advance(1);
    const retried = await nthPost(2);
    expect(String(retried.args.text)).toMatch(/revoked license `[^`]+` of \*[^*]+\*/);
    expect(String(retried.args.text)).toContain('license `4011`');
    expect(t.logs.some((l) => l.message === 'could not post to the audit channel')).toBe(false);
  });

  it('at stop, close() posts what waits (an open burst included) instead of losing it', async () => {
    await start();
    await t.clickButton(ChangeActionId.revokeConfirm, '4012', { userId: TEST_USERS.viewer });
    await t.clickButton(ActionId.poolAssign, '2001', { userId: TEST_USERS.viewer });
    await until('2 audit lines', () => auditLines().length === 2);
    expect(posts()).toHaveLength(0);
    const closing = t.audit.close(5000);
    const post = await nthPost(1);
    expect(await closing).toEqual({ posted: 1, unsent: 0 });
    expect(String(post.args.text)).toContain(
      'was refused 2 times in the last minute: revoke license `4012`, assign pool `2001`',
    );
    // After close, an entry still reaches the log and the table; the log says it was not posted.
    await t.clickButton(ChangeActionId.revokeConfirm, '4013', { userId: TEST_USERS.viewer });
    await until('the third audit line', () => auditLines().length === 3);
    await until('the not-posted line', () =>
      t.logs.some((l) => String(l.message).includes('this entry is not posted')),
    );
    await until('the third row', async () => (await rows()) === 3);
    expect(posts()).toHaveLength(1);
  });
});
