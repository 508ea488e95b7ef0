/**
 * The licensing service answers 401 because License Desk's token is wrong. Only license admins are
 * told which setting to fix; everyone else hears that License Desk can't reach the licensing service
 * and that the admins have been told, and the admins are told once (the audit channel, or DMs to
 * LICENSE_ADMINS), never with the token itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RespondedRequest, startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { textOf } from '../support/change-flow.js';
import { isFinalReply, type SlackCall } from '../support/fake-slack.js';

const WRONG = 'wrong-token-4f1c9e';
const AUDIT = 'C0AUDIT0001';
const final = async (r: RespondedRequest) => textOf((await r.waitForResponse(isFinalReply)).body);
const posts = (t: TestApp, channel: string) =>
  t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === channel);

describe('401 with an audit channel', () => {
  const t = appPerFile('token-refused-', () => startTestApp({ licensing: { token: WRONG }, auditChannel: AUDIT }));

  it('a viewer hears the service is unreachable and the admins were told; the channel gets one alarm', async () => {
    const text = await final(await t.command('pools', { userId: TEST_USERS.viewer }));
    expect(text).toContain("License Desk can't reach the licensing service right now");
    expect(text).toContain('The license admins have been told');
    expect(text).not.toMatch(/LICENSING_API_TOKEN|token/i);

    const alarm: SlackCall = await t.slack.waitForCall('chat.postMessage', (c) => c.args.channel === AUDIT);
    expect(textOf(alarm.args)).toContain('refuses License Desk’s API token');
    expect(textOf(alarm.args)).toContain('LICENSING_API_TOKEN');

    // Another viewer, another refused read: no second alarm within the hour.
    const again = await final(await t.command('courses', { userId: TEST_USERS.groupViewer }));
    expect(again).toContain('The license admins have been told');
    expect(posts(t, AUDIT)).toHaveLength(1);
  });

  it('a license admin is told which setting to fix', async () => {
    const text = await final(await t.command('pools', { userId: TEST_USERS.admin }));
    expect(text).toContain('token is no longer valid');
    expect(text).toContain('LICENSING_API_TOKEN');
    expect(posts(t, AUDIT)).toHaveLength(1);
  });

  it('the token itself reaches no message and no log line', () => {
    const everything = JSON.stringify([t.slack.calls, t.slack.responses, t.logs]);
    expect(everything).not.toContain(WRONG);
  });
});

describe('401 when the alarm cannot be posted', () => {
  const t = appPerFile('token-refused-', () => startTestApp({ licensing: { token: WRONG }, auditChannel: AUDIT }));

  it('nobody is promised that the admins know, and the next refusal tries the alarm again', async () => {
    // The bot was never invited to the audit channel: Slack refuses the post.
    t.slack.answer('chat.postMessage', { ok: false, error: 'not_in_channel' }, 1);
    const text = await final(await t.command('pools', { userId: TEST_USERS.viewer }));
    expect(text).toContain("License Desk can't reach the licensing service");
    expect(text).not.toContain('The license admins have been told');
    expect(text).not.toMatch(/LICENSING_API_TOKEN|token/i);
    expect(t.logs.some((l) => String(l.message).includes('could not tell every admin'))).toBe(true);

    const again = await final(await t.command('courses', { userId: TEST_USERS.viewer }));
    expect(again).toContain('The license admins have been told');
    expect(posts(t, AUDIT).length).toBe(2);
  });
});

describe('401 with LICENSE_ADMINS and no audit channel', () => {
  const t = appPerFile('token-refused-', () => startTestApp({ licensing: { token: WRONG } }));

  it('the listed admin gets a DM; the viewer is told the admins know', async () => {
    const text = await final(await t.command('list', { userId: TEST_USERS.viewer }));
    expect(text).toContain('The license admins have been told');
    const open = await t.slack.waitForCall('conversations.open', (c) => c.args.users === TEST_USERS.admin);
    expect(open.args.users).toBe(TEST_USERS.admin);
    const dm = await t.slack.waitForCall('chat.postMessage', (c) => String(c.args.channel).startsWith('D'));
    expect(textOf(dm.args)).toContain('LICENSING_API_TOKEN');
    expect(JSON.stringify(t.slack.calls)).not.toContain(WRONG);
  });
});

describe('401 with nobody configured to tell', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Workspace admins are the license admins and there is no audit channel: no list to tell.
    t = await startTestApp({ licensing: { token: WRONG }, admins: [], viewers: '*' });
  });
  afterAll(() => t.close());

  it('the viewer is not promised that the admins know, and the log says it', async () => {
    const text = await final(await t.command('pools', { userId: TEST_USERS.viewer }));
    expect(text).toContain("License Desk can't reach the licensing service right now");
    expect(text).toContain('Please let a license admin know');
    expect(text).not.toMatch(/have been told|LICENSING_API_TOKEN/);
    const said = () =>
      t.logs.filter((l) => String(l.message).includes('refuses the API token (401); no AUDIT_CHANNEL'));
    expect(said()).toHaveLength(1);
    // Said once an hour, not on every refused read.
    await final(await t.command('courses', { userId: TEST_USERS.viewer }));
    expect(said()).toHaveLength(1);
  });
});

describe('401 during the daily alert check (nobody waiting)', () => {
  const t = appPerFile('token-refused-', (dataDir) =>
    startTestApp({ licensing: { token: WRONG }, auditChannel: AUDIT, dataDir }),
  );

  it('the admins are told in the audit channel', async () => {
    await t.desk?.scheduler?.runNow().catch(() => undefined);
    const alarm = await t.slack.waitForCall('chat.postMessage', (c) => c.args.channel === AUDIT);
    expect(textOf(alarm.args)).toContain('LICENSING_API_TOKEN');
    expect(JSON.stringify(alarm.args)).not.toContain(WRONG);
  });
});
