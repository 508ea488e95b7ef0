/**
 * Every Block Kit payload the app produced in a tour of all surfaces (each subcommand, each role, bad
 * input, errors, paging clicks), over the demo data and over a large hostile data set (200 pools,
 * 300-character titles, names like `<!channel>`), checked against Slack's limits and for pings.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../local/sandbox/types.js';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply, type ResponseUrlPost } from '../support/fake-slack.js';
import { buttons, mrkdwnText } from '../support/fixtures.js';

const PINGS = /<!(channel|here|everyone)>|<@U0BOSS|<https?:\/\/evil/;
const USERS = [TEST_USERS.admin, TEST_USERS.viewer, TEST_USERS.nobody];

const DAY = 86_400_000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace(/\.\d+Z$/, '+00:00');
const HOSTILE = '<!channel> & <@U0BOSS0001> <https://evil.example|click> ';

function largeHostileData(): SandboxData {
  const courses = Array.from({ length: 40 }, (_, i) => ({
    id: String(100 + i),
    title: `${HOSTILE}${'Advanced DAX & Modeling '.repeat(12)}${i}`.slice(0, 300),
  }));
  const pools = Array.from({ length: 200 }, (_, i) => ({
    id: String(5000 + i),
    course: { id: String(100 + (i % 40)), title: courses[i % 40]?.title ?? '' },
    start: iso(-100),
    end: iso(i % 3 === 0 ? -5 : i % 3 === 1 ? 10 : 300),
    transferable: i % 2 === 0,
    licenses: 30,
  }));
  const students = Array.from({ length: 60 }, (_, i) => ({
    id: String(9000 + i),
    name: `${HOSTILE}${'Student & Co '.repeat(20)}${i}`,
    email: `student${i}@contoso.com`,
  }));
  // Student i holds a license in pools 5000..5029 (one course each), so each has 30 licenses.
  const licenses = students.flatMap((s, i) =>
    Array.from({ length: i < 3 ? 30 : 2 }, (_, k) => ({
      id: String(70_000 + i * 100 + k),
      poolId: String(5000 + ((i + k) % 40) + 40),
      studentId: s.id,
      start: iso(-50),
      end: iso(k % 2 ? 3 : 200),
      active: k % 5 !== 4,
    })),
  );
  const progress = licenses.map((l, i) => ({
    studentId: l.studentId,
    courseId: String(100 + ((Number(l.poolId) - 5000) % 40)),
    progress: i % 101,
    completed: i % 7 === 0 ? iso(-3) : null,
  }));
  return {
    me: {
      id: '1',
      name: `${HOSTILE} Org`,
      email: 'm@contoso.com',
      allowedDomainsForTransferableLicenses: [...Array.from({ length: 400 }, (_, i) => `d${i}.example.com`), '<!here>'],
    },
    courses,
    pools,
    students,
    licenses,
    progress,
  };
}

async function tour(t: TestApp, licenseId: string, email: string): Promise<void> {
  const texts = [
    '',
    'help',
    'pools',
    'pools 2',
    'pools 20',
    'list',
    'list all',
    `show ${licenseId}`,
    `find ${email}`,
    'find <@U0ALEX0001|alex.kim>',
    'students',
    'courses',
    'me',
    'show 424242',
    'bogus <!channel>',
    'x'.repeat(3100),
  ];
  const finals: ResponseUrlPost[] = [];
  for (const userId of USERS) {
    for (const text of texts) {
      const r = await t.command(text, { userId });
      finals.push(await r.waitForResponse(isFinalReply, 20_000));
    }
  }
  // Follow every navigation button of the admin's answers once (paging, Licenses, Details).
  const navIds: string[] = [ActionId.navNext, ActionId.navPrevious, ActionId.navToggleInactive, ActionId.poolLicenses];
  const clicks = finals.flatMap((p) => buttons(p.body)).filter((b) => navIds.includes(b.action_id));
  const seen = new Set<string>();
  for (const b of clicks) {
    if (b.value === undefined || seen.has(b.value) || seen.size >= 25) continue;
    seen.add(b.value);
    const r = await t.clickButton(b.action_id, b.value);
    await r.waitForResponse(isFinalReply, 20_000);
  }
  t.sandbox.addFault({ kind: '500' });
  await (await t.command('list 2')).waitForResponse(isFinalReply, 20_000);
  await (await t.command('courses')).waitForResponse(isFinalReply, 20_000);
  t.sandbox.clearFaults();
}

function expectAllWithinLimits(t: TestApp): void {
  const posts = t.slack.responses;
  expect(posts.length).toBeGreaterThan(60);
  const problems = posts.flatMap((p) => checkBlockKitLimits(p.body).map((problem) => `${p.id}: ${problem}`));
  expect(problems).toEqual([]);
  const pings = posts.filter((p) => PINGS.test(mrkdwnText(p.body))).map((p) => p.id);
  expect(pings).toEqual([]);
}

describe('every payload of a tour over the demo data', () => {
  const t = appPerFile('block-kit-limits-', () => startTestApp({ sandbox: { rateLimit: false } }));

  it('stays within Block Kit limits and pings nobody', async () => {
    await tour(t, '4011', 'channel.co@fabrikam.com');
    expectAllWithinLimits(t);
  }, 60_000);
});

describe('every payload of a tour over 200 pools with hostile 300-character titles', () => {
  const t = appPerFile('block-kit-limits-', () =>
    startTestApp({ sandbox: { rateLimit: false, seed: largeHostileData() } }),
  );

  it('pages instead of overflowing, stays within limits and pings nobody', async () => {
    await tour(t, '70000', 'student0@contoso.com');
    expectAllWithinLimits(t);
    const pools = t.slack.responses.find((p) => String(p.body.text).includes('License pools: '));
    const [, running, ended] = /(\d+) pools running, (\d+) ended/.exec(String(pools?.body.text)) ?? [];
    expect(Number(running) + Number(ended)).toBe(200);
  }, 60_000);
});
