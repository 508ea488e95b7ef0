/**
 * Button clicks end to end: paging with the values the app rendered, the Licenses and Details buttons,
 * the change buttons' placeholder, and the role check on every click.
 */
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../src/kernel/blocks/ids.js';
import { type RespondedRequest, startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { isFinalReply } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';

const final = (r: RespondedRequest) => r.waitForResponse(isFinalReply);

const t = appPerFile('actions-', () => startTestApp());

async function shown(r: RespondedRequest) {
  expect(r.status).toBe(200);
  expect(r.ackMs).toBeLessThan(1000);
  const post = await final(r);
  return { post, text: allText(post.body), buttons: buttons(post.body) };
}

function buttonValue(view: { buttons: { action_id: string; value: string | undefined }[] }, actionId: string): string {
  const value = view.buttons.find((b) => b.action_id === actionId)?.value;
  if (value === undefined) throw new Error(`no ${actionId} button`);
  return value;
}

const details = (view: { buttons: { action_id: string }[] }) =>
  view.buttons.filter((b) => b.action_id === ActionId.licenseDetails).length;

describe('paging by clicking', () => {
  it('walks a pool: Next, Previous, include inactive, and back', async () => {
    const first = await shown(await t.command('pool 2001'));
    expect(details(first)).toBe(10);

    const second = await shown(await t.clickButton(ActionId.navNext, buttonValue(first, ActionId.navNext)));
    expect(second.post.body.replace_original).toBe(true);
    expect(details(second)).toBe(3);
    expect(second.text).toContain('page 2');
    expect(second.buttons.map((b) => b.action_id)).not.toContain(ActionId.navNext);

    const back = await shown(await t.clickButton(ActionId.navPrevious, buttonValue(second, ActionId.navPrevious)));
    expect(details(back)).toBe(10);
    expect(back.text).toContain('page 1');

    const inactive = await shown(
      await t.clickButton(ActionId.navToggleInactive, buttonValue(back, ActionId.navToggleInactive)),
    );
    expect(inactive.text).toContain('inactive included');
    const page2 = await shown(await t.clickButton(ActionId.navNext, buttonValue(inactive, ActionId.navNext)));
    expect(details(page2)).toBe(6);
    expect(page2.text).toContain('Inactive');
  });

  it('pages students and the license list', async () => {
    const students = await shown(await t.command('students', { userId: TEST_USERS.viewer }));
    const next = await shown(
      await t.clickButton(ActionId.navNext, buttonValue(students, ActionId.navNext), { userId: TEST_USERS.viewer }),
    );
    expect(next.text).toContain('Page 2');
    const list = await shown(await t.command('list'));
    const list2 = await shown(await t.clickButton(ActionId.navNext, buttonValue(list, ActionId.navNext)));
    expect(list2.text).toContain('page 2');
    expect(details(list2)).toBe(10);
  });

  it('opens a pool from the pools view and a license from a row', async () => {
    const pools = await shown(await t.command('pools', { userId: TEST_USERS.viewer }));
    const open2001 = pools.buttons.find((b) => b.action_id === ActionId.poolLicenses && b.value?.includes('"2001"'));
    const pool = await shown(
      await t.clickButton(ActionId.poolLicenses, open2001?.value ?? '', { userId: TEST_USERS.viewer }),
    );
    expect(pool.text).toContain('Licenses · Mastering DAX');
    const license = await shown(
      await t.clickButton(ActionId.licenseDetails, buttonValue(pool, ActionId.licenseDetails), {
        userId: TEST_USERS.viewer,
      }),
    );
    expect(license.text).toContain('*Status*');
    // A viewer's view of a license has no change buttons.
    expect(license.buttons.map((b) => b.action_id)).toEqual([ActionId.poolLicenses]);
  });
});

describe('every click checks the role again', () => {
  it('refuses a member without a role and takes the data off their screen', async () => {
    t.sandbox.clearRequests();
    const r = await t.clickButton(ActionId.navNext, '{"v":"pool","p":"2001","n":2,"i":0}', {
      userId: TEST_USERS.nobody,
    });
    const { post, text } = await shown(r);
    expect(text).toContain("you don't have access");
    expect(post.body.replace_original).toBe(true);
    expect(t.sandbox.requests).toEqual([]);
  });

  it.each([
    ['not JSON', 'page-2'],
    ['an unknown view', '{"v":"secrets","n":1}'],
    ['a hostile id', '{"v":"pool","p":"../../admin","n":1,"i":0}'],
    ['a huge page', '{"v":"students","n":1e9}'],
  ])('answers a forged value (%s) without a licensing call', async (_name, value) => {
    t.sandbox.clearRequests();
    const { text } = await shown(await t.clickButton(ActionId.navNext, value));
    expect(text).toContain('That button no longer works');
    expect(t.sandbox.requests).toEqual([]);
  });
});

describe('change buttons (their flows are in the assign, extend and revoke tests)', () => {
  it.each([
    [ActionId.poolAssign, '2001'],
    [ActionId.licenseChangeEndDate, '4001'],
  ])('%s is acknowledged at once and opens a loading modal before any licensing call', async (actionId, value) => {
    t.sandbox.clearRequests();
    const before = t.slack.calls.length;
    const r = await t.clickButton(actionId, value);
    expect(r.status).toBe(200);
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= before);
    expect(open.at).toBeLessThanOrEqual(Math.min(Date.now(), ...t.sandbox.requests.map((q) => q.at)));
  });

  it('tells a viewer that changes are for license admins', async () => {
    const { text } = await shown(await t.clickButton(ActionId.licenseRevoke, '4001', { userId: TEST_USERS.viewer }));
    expect(text).toContain('Only license admins can change licenses');
  });
});
