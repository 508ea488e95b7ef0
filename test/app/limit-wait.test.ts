/**
 * A wait for the licensing API's rate limit is said, with about how long, in the first thing a person
 * sees: the "working" reply of a command and the loading view of a modal. Signed requests into the real
 * app; the licensing client paced at the production 25 requests a minute, its budget spent beforehand
 * by 25 reads of its own (as other people's clicks would).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf, viewOf } from '../support/change-flow.js';
import { allText } from '../support/fixtures.js';
import { selfServiceTo } from '../support/requests.js';

const WAIT_WORDS = /Waiting for the licensing API's limit of 25 requests a minute: about (a minute|\d+ seconds)\./;

const t = appPerFile('limit-wait-', () =>
  startTestApp({
    licensing: { rateLimit: { limit: 25, windowMs: 60_000, marginMs: 1_000 } },
    ...selfServiceTo('C0REQUESTS'),
    reclaim: {},
  }),
);
beforeAll(async () => {
  // The minute's budget, spent: each read holds its slot for a minute after its answer.
  await Promise.all(Array.from({ length: 25 }, () => t.licensing.licenses.get('4001')));
});

describe('a wait for the licensing limit', () => {
  it('the first reply of `/licenses show` names the limit and about how long', async () => {
    const r = await t.command('show 4002', { userId: TEST_USERS.admin });
    const first = await r.waitForResponse(() => true);
    const text = allText(first.body);
    expect(text).toContain('Working on it: reading the license…');
    expect(text).toMatch(WAIT_WORDS);
  });

  it('the loading view of "Change end date" names it too, instead of a bare "Reading the license…"', async () => {
    const from = t.slack.calls.length;
    await t.clickButton(ActionId.licenseChangeEndDate, '4005');
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const text = textOf(viewOf(open).blocks);
    expect(text).toContain('Reading the license…');
    expect(text).toMatch(WAIT_WORDS);
  });

  it('the loading view of the course request form names it too, instead of a bare "Reading the courses…"', async () => {
    const from = t.slack.calls.length;
    await t.command('request', { userId: TEST_USERS.nobody });
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const text = textOf(viewOf(open).blocks);
    expect(text).toContain('Reading the courses…');
    expect(text).toMatch(WAIT_WORDS);
  });

  it('the first replies of `/licenses digest` and `/licenses reclaim` name it too', async () => {
    for (const [command, working] of [
      ['digest', 'Working on it: counting seats and progress…'],
      ['reclaim 2001', 'Working on it: finding who stalled or never started…'],
    ] as const) {
      const r = await t.command(command, { userId: TEST_USERS.admin });
      const text = allText((await r.waitForResponse(() => true)).body);
      expect(text).toContain(working);
      expect(text).toMatch(WAIT_WORDS);
    }
  });
});
