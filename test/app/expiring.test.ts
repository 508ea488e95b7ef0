/**
 * /licenses expiring [days], end to end: signed commands and clicks into the real app, the sandbox's demo
 * data as the licensing API. Active licenses of the demo that end within two weeks: 4035 (pool 2004, in 2
 * days), 4002 (pool 2001, 3 days), 4031 (pool 2003, 5 days), 4005 (pool 2001, 6 days); eight more of pool
 * 2004 end with it in 21 days and 4012 (pool 2001) in 40.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { type RespondedRequest, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';

// Noon UTC: the demo's "in 3 days" licenses end at 23:59:59 UTC three days later, 3 calendar days ahead.
const NOW = new Date('2026-05-04T12:00:00Z');

const t = appPerFile('expiring-', () => startTestApp({ now: () => NOW }));

async function answer(r: RespondedRequest) {
  const post = await r.waitForResponse(isFinalReply);
  return { post, text: allText(post.body), buttons: buttons(post.body) };
}

const run = async (text: string, userId: string = TEST_USERS.admin) => answer(await t.command(text, { userId }));

/** The "ends in …" of each row, in the order shown. */
const endings = (text: string) => [...text.matchAll(/ends (today|tomorrow|in \d+ days)/g)].map((m) => m[0]);

describe('/licenses expiring', () => {
  it('an admin sees the licenses ending within 14 days, soonest first, each with Extend', async () => {
    const { text, buttons: found } = await run('expiring');
    expect(text).toContain('Licenses ending within 14 days');
    expect(endings(text)).toEqual(['ends in 2 days', 'ends in 3 days', 'ends in 5 days', 'ends in 6 days']);
    // Student (e-mail as the pool list shows it), course and pool on each row.
    expect(text).toContain('Mastering DAX');
    expect(text).toContain('Optimizing DAX');
    expect(text).toContain('pool `2001`');
    expect(text).toMatch(/\*Marco Novak\* marco\.novak@contoso\.com · Mastering DAX/);
    const extend = found.filter((b) => b.action_id === ActionId.licenseChangeEndDate);
    expect(extend.map((b) => b.value)).toEqual(['4035', '4002', '4031', '4005']);
    expect(found.map((b) => b.action_id)).not.toContain(ActionId.navNext);
  });

  it('`expiring 3` narrows to the licenses with at most 3 days left', async () => {
    const { text } = await run('expiring 3');
    expect(text).toContain('Licenses ending within 3 days');
    expect(endings(text)).toEqual(['ends in 2 days', 'ends in 3 days']);
  });

  it('a viewer sees the same list without any button', async () => {
    const { text, buttons: found } = await run('expiring', TEST_USERS.viewer);
    expect(endings(text)).toHaveLength(4);
    expect(found).toEqual([]);
  });

  it('a member without a role is refused, with no licensing request', async () => {
    t.sandbox.clearRequests();
    const { text, buttons: found } = await run('expiring 30', TEST_USERS.nobody);
    expect(text).toContain("you don't have access");
    expect(found).toEqual([]);
    expect(t.sandbox.requests).toEqual([]);
  });

  it('`expiring abc` gets help with one sentence and costs no licensing request', async () => {
    t.sandbox.clearRequests();
    for (const bad of ['abc', '0', '366']) {
      const { text } = await run(`expiring ${bad}`);
      expect(text).toContain(`“${bad}” is not a number of days; give 1 to 365, as in \`/licenses expiring 30\`.`);
      expect(text).toContain('/licenses expiring [days]');
    }
    expect(t.sandbox.requests).toEqual([]);
  });

  it('pages ten at a time: Next shows the rest, Previous goes back', async () => {
    const first = await run('expiring 60');
    expect(first.text).toContain('13 active licenses · soonest first · page 1 of 2');
    expect(endings(first.text)).toHaveLength(10);
    const next = first.buttons.find((b) => b.action_id === ActionId.navNext);
    // The wire format of every navigation button: short keys.
    expect(next?.value).toBe('{"v":"expiring","d":60,"n":2}');

    const second = await answer(await t.clickButton(ActionId.navNext, next?.value ?? ''));
    expect(second.text).toContain('page 2 of 2');
    expect(endings(second.text)).toEqual(['ends in 21 days', 'ends in 21 days', 'ends in 40 days']);
    expect(second.buttons.map((b) => b.action_id)).toContain(ActionId.navPrevious);
    expect(second.buttons.map((b) => b.action_id)).not.toContain(ActionId.navNext);
  });

  it('nothing ending: one friendly sentence', async () => {
    const { text, buttons: found } = await run('expiring 1');
    expect(text).toContain('Nothing ends soon: no active license ends within the next 1 day.');
    expect(found).toEqual([]);
  });
});

describe('one day count for an end date in every view', () => {
  // 09:00 UTC: license 4002 ends May 7 at 23:59:59 UTC, 3 calendar days and about 3.6 × 24 hours ahead.
  const MORNING = new Date('2026-05-04T09:00:00Z');
  let m: TestApp;
  beforeAll(async () => {
    m = await startTestApp({ now: () => MORNING });
  });
  afterAll(() => m.close());

  const read = async (text: string) =>
    allText((await (await m.command(text, { userId: TEST_USERS.admin })).waitForResponse(isFinalReply)).body);

  it('the pool view, the license view and `expiring` give license 4002 the same "in 3 days"', async () => {
    const expiring = await read('expiring 3');
    expect(expiring).toMatch(/ends in 3 days\* \(May 7, 2026\) · pool `2001` · license `4002`/);
    const pool = await read('pool 2001');
    expect(pool).toContain('ends May 7, 2026 (in 3 days) · license `4002`');
    const show = await read('show 4002');
    expect(show).toContain('ends May 7, 2026 (in 3 days)');
  });
});
