/**
 * The local console refuses what Slack would refuse, at the Web API boundary the app uses: a real
 * WebClient calls the local Slack double on 127.0.0.1, with the console in front of it (its
 * `intercept` and `onResponse` hooks). Each refusal comes back as Slack's ok:false error and shows in
 * the page's state as a notice.
 */
import { webApi } from '@slack/bolt';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createConsole, escapeCommandText, type LocalConsole } from '../../local/console/server.js';
import { DEMO_BOT_TOKEN, DEMO_SLACK_USERS, DEMO_USERS } from '../../local/slack/demo.js';
import { type LocalSlack, startLocalSlack } from '../../local/slack/local-slack.js';

const ADMIN = DEMO_USERS.admin;
const OPS = 'C0DEMOOPS1';
const modal = (title = 'Assign a license') => ({
  type: 'modal',
  title: { type: 'plain_text', text: title },
  close: { type: 'plain_text', text: 'Cancel' },
  blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Hello' } }],
});

describe('the local console applies Slack rules to the Web API calls it receives', () => {
  let clock = 1_800_000_000_000;
  let console_: LocalConsole;
  let local: LocalSlack;
  let client: webApi.WebClient;

  beforeEach(async () => {
    clock = 1_800_000_000_000;
    console_ = createConsole({
      users: DEMO_SLACK_USERS,
      roleLabels: { [ADMIN]: 'license admin' },
      channels: [{ id: OPS, name: 'license-ops', kind: 'channel' }],
      signingSecret: 'not-used-here-000',
      botUserId: 'U0LICBOT01',
      team: { id: 'T0LOCAL001', domain: 'license-desk-local' },
      appId: 'A0LICBOT01',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      now: () => clock,
    });
    local = await startLocalSlack({
      users: DEMO_SLACK_USERS,
      botToken: DEMO_BOT_TOKEN,
      intercept: console_.intercept,
      onResponse: console_.onResponse,
    });
    console_.attach(local);
    client = new webApi.WebClient(DEMO_BOT_TOKEN, { slackApiUrl: local.apiUrl, retryConfig: { retries: 0 } });
  });

  afterEach(async () => {
    console_.close();
    await local.close();
  });

  const slackError = (p: Promise<unknown>) =>
    p.then(
      () => 'accepted',
      (e: { data?: { error?: string } }) => e.data?.error ?? String(e),
    );
  const notices = () => console_.world.snapshot(ADMIN).notices.map((n) => `${n.text} ${(n.details ?? []).join(' ')}`);

  it('trigger ids: a fresh one opens a modal once; a used or 3 s old one is refused', async () => {
    const fresh = console_.world.newTrigger(ADMIN);
    const opened = await client.views.open({ trigger_id: fresh, view: modal() as never });
    expect(opened.ok).toBe(true);
    expect(console_.world.snapshot(ADMIN).modals.map((v) => v.id)).toEqual([opened.view?.id]);
    expect(await slackError(client.views.open({ trigger_id: fresh, view: modal() as never }))).toBe(
      'exchanged_trigger_id',
    );
    // A trigger the page did not give out (npm run try makes its own) opens where nobody sees it, said so.
    const unseen = await client.views.open({ trigger_id: '123.456.try', view: modal() as never });
    expect(unseen.ok).toBe(true);
    expect(notices().at(-1)).toMatch(/trigger_id the console did not give out.*nobody sees this view/);
    expect(console_.world.snapshot(ADMIN).modals).toHaveLength(1);
    // ... and it can still be updated, as the app does after opening a form.
    const updated = await client.views.update({ view_id: unseen.view?.id ?? '', view: modal('Next') as never });
    expect(updated.ok).toBe(true);
    const late = console_.world.newTrigger(ADMIN);
    clock += 3_200;
    expect(await slackError(client.views.open({ trigger_id: late, view: modal() as never }))).toBe(
      'expired_trigger_id',
    );
    expect(notices().at(-1)).toMatch(/expired_trigger_id.*3\.2 s old.*3 s/);
  });

  it('views.update with a stale hash is a hash_conflict; with the current hash it updates', async () => {
    const opened = await client.views.open({ trigger_id: console_.world.newTrigger(ADMIN), view: modal() as never });
    const id = opened.view?.id ?? '';
    const hash = opened.view?.hash ?? '';
    const updated = await client.views.update({ view_id: id, hash, view: modal('Checking') as never });
    expect(updated.view?.title?.text).toBe('Checking');
    expect(await slackError(client.views.update({ view_id: id, hash, view: modal('Again') as never }))).toBe(
      'hash_conflict',
    );
    expect(console_.world.snapshot(ADMIN).modals[0]?.view.title).toEqual({ type: 'plain_text', text: 'Checking' });
  });

  it('a fourth pushed view is refused (push_limit_reached)', async () => {
    await client.views.open({ trigger_id: console_.world.newTrigger(ADMIN), view: modal() as never });
    await client.views.push({ trigger_id: console_.world.newTrigger(ADMIN), view: modal('Two') as never });
    await client.views.push({ trigger_id: console_.world.newTrigger(ADMIN), view: modal('Three') as never });
    expect(
      await slackError(
        client.views.push({ trigger_id: console_.world.newTrigger(ADMIN), view: modal('Four') as never }),
      ),
    ).toBe('push_limit_reached');
    expect(console_.world.snapshot(ADMIN).modals).toHaveLength(3);
  });

  it('messages that break Block Kit limits or use an unknown block type are refused and named', async () => {
    const section = { type: 'section', text: { type: 'mrkdwn', text: 'row' } };
    expect(
      await slackError(client.chat.postMessage({ channel: OPS, text: 'Too many', blocks: Array(51).fill(section) })),
    ).toBe('invalid_blocks');
    expect(notices().at(-1)).toMatch(/51 blocks, limit 50/);
    expect(
      await slackError(client.chat.postMessage({ channel: OPS, text: 'Fancy', blocks: [{ type: 'fancy' } as never] })),
    ).toBe('invalid_blocks');
    expect(notices().at(-1)).toMatch(/unexpected block type fancy/);
    const longTitle = { ...modal(), title: { type: 'plain_text', text: 'A title far longer than Slack allows' } };
    expect(
      await slackError(client.views.open({ trigger_id: console_.world.newTrigger(ADMIN), view: longTitle as never })),
    ).toBe('invalid_arguments');
    // Real Slack blocks the checker does not judge are not "unknown".
    const rich = {
      type: 'rich_text',
      elements: [{ type: 'rich_text_section', elements: [{ type: 'text', text: 'hi' }] }],
    };
    const posted = await client.chat.postMessage({ channel: OPS, text: 'Rich', blocks: [rich] });
    expect(posted.ok).toBe(true);
    expect(console_.world.snapshot(ADMIN).messages.map((m) => m.text)).toEqual(['Rich']);
  });

  it('response_url posts: the first reply is new and ephemeral, replace_original edits it, delete_original removes it', async () => {
    const id = console_.world.newResponseContext({ userId: ADMIN, channel: OPS });
    const post = (body: unknown) =>
      fetch(local.responseUrl(id), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post({ text: 'Working…' });
    await post({ text: 'Pools', replace_original: true });
    const mine = console_.world.snapshot(ADMIN).messages;
    expect(mine.map((m) => [m.text, m.ephemeralFor])).toEqual([['Pools', ADMIN]]);
    // Somebody else never sees another person's ephemeral reply.
    expect(console_.world.snapshot(DEMO_USERS.member).messages).toEqual([]);
    await post({ delete_original: true });
    expect(console_.world.snapshot(ADMIN).messages).toEqual([]);
  });

  it('a DM by user id lands in that person’s DM only', async () => {
    const posted = await client.chat.postMessage({ channel: DEMO_USERS.member, text: 'Your CSV is ready' });
    expect(posted.channel).toBe(`D${DEMO_USERS.member.slice(1)}`);
    expect(console_.world.snapshot(DEMO_USERS.member).messages.map((m) => m.text)).toEqual(['Your CSV is ready']);
    expect(console_.world.snapshot(ADMIN).messages).toEqual([]);
  });
});

describe('command text is escaped as Slack escapes it (should_escape)', () => {
  it('turns @name and #channel into escaped mentions and &, <, > into entities', () => {
    const channels = [{ id: OPS, name: 'license-ops', kind: 'channel' as const }];
    expect(escapeCommandText('find @alberto.rossi', DEMO_SLACK_USERS, channels)).toBe(
      'find <@U0DEMOSTU1|alberto.rossi>',
    );
    expect(escapeCommandText('see #license-ops & <b> @nobody', DEMO_SLACK_USERS, channels)).toBe(
      'see <#C0DEMOOPS1|license-ops> &amp; &lt;b&gt; @nobody',
    );
    expect(escapeCommandText('hi @here', DEMO_SLACK_USERS, channels)).toBe('hi <!here>');
  });
});
