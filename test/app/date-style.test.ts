/**
 * One date style per view, end to end: signed commands, clicks, a form submission and the App Home
 * event into the real app, and what it sent Slack (replies, modals, App Home, alerts) read as a person
 * reads it (Slack's own date tokens rendered, as try and the console render them). A calendar day
 * reads "Jul 28, 2027" everywhere, the same for every reader; an ISO day (2027-07-28) is only what a
 * date picker holds.
 */
import { describe, expect, it } from 'vitest';
import { mrkdwnToText } from '../../local/try/render.js';
import { CallbackId } from '../../src/kernel/blocks/ids.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { extendState, openModal, submit, textOf } from '../support/change-flow.js';
import type { SlackCall } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';

const ISO_DAY = /\b\d{4}-\d{2}-\d{2}\b/;
const READABLE_DAY = /\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{1,2}, \d{4}\b/;
const ALERTS = 'C0DATEALRT';

/** Every text of a message or view, as sent. */
const read = (value: unknown) => allText(value);

/**
 * `raw`: the mrkdwn sent. A calendar day is plain text, the same for every reader: a day-only Slack
 * date token would show a day that ends at 23:59:59 UTC as the next day east of UTC.
 */
function expectOneStyle(view: string, raw: string): void {
  const text = mrkdwnToText(raw);
  expect(text, `${view}: shows a date`).toMatch(READABLE_DAY);
  expect(text.match(ISO_DAY)?.[0], `${view}: an ISO day beside "Jul 28, 2027"-style days`).toBeUndefined();
  expect(
    raw.match(/<!date\^\d+\^\{date_short\}\|[^>]*>/)?.[0],
    `${view}: a day in the reader's time zone`,
  ).toBeUndefined();
}

// The daily check is due from midnight, so that it runs whatever the hour the suite runs at.
const t = appPerFile('desk-date-style-', (dataDir) =>
  startTestApp({ dataDir, auditChannel: ALERTS, alerts: { time: '00:00' } }),
);

describe('one date style per view', () => {
  it.each([['pools'], ['pool 2003'], ['list'], ['expiring 30'], ['show 4001'], ['find alberto.rossi@contoso.com']])(
    '/licenses %s',
    async (command) => {
      const r = await t.command(command);
      const post = await r.waitForResponse((p) => !allText(p.body).includes('Working on it'));
      expectOneStyle(command, read(post.body));
    },
  );

  it('the assign form (pool menu, end-date hint)', async () => {
    const view = await openModal(t, () => t.command('assign 2001'));
    expectOneStyle('assign form', read(view));
  });

  it('the end-date form, and its answer to a day after the pool ends', async () => {
    // 4002 ends before its pool: the form offers its quick choices (+30 days, +90 days, pool end).
    const view = await openModal(t, () => t.command('extend 4002'));
    expect(read(view)).toContain('+30 days');
    expectOneStyle('end-date form', read(view));
    const { ack } = await submit(
      t,
      { id: view.id, callback_id: CallbackId.extendForm, private_metadata: view.private_metadata },
      extendState({ date: '2099-01-01' }),
    );
    // An inline error under the date picker: { response_action: 'errors', errors: { block: sentence } }.
    expect(ack.response_action).toBe('errors');
    expectOneStyle('end-date form error', textOf(ack.errors));
  });

  it('App Home', async () => {
    await t.event({ type: 'app_home_opened', user: 'U0MGR00001', channel: 'D0DATES001', tab: 'home' });
    const call = await t.slack.waitForCall(
      'views.publish',
      (c: SlackCall) => !allText(c.args.view).includes('Refreshing') && allText(c.args.view).includes('Pools'),
    );
    expectOneStyle('App Home', read(call.args.view));
  });

  it('the daily alerts', async () => {
    expect(await t.desk?.scheduler?.tick()).toBe('ran');
    const posts = t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
    const dated = posts.map((c) => read(c.args)).filter((text) => READABLE_DAY.test(text) || ISO_DAY.test(text));
    expect(dated.length).toBeGreaterThan(0);
    for (const text of dated) expectOneStyle('alert', text);
  });
});
