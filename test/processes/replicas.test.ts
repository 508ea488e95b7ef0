/**
 * Two replicas of the real app (src/main.ts in two child processes, HTTP mode) with one Redis and one
 * PostgreSQL database (DATABASE_URL: where bulk jobs live), as behind a load balancer: one sandbox plays the licensing API and one recording double plays Slack
 * for both, all on 127.0.0.1. What must happen once happens once: the daily alert check, each row of
 * a bulk job (also when the replica running it is killed mid-job and the other takes over), and a
 * double click whose two clicks reach different replicas.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoData, startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { BulkInputId, ChangeActionId, DeskCallbackId } from '../../src/kernel/blocks/ids.js';
import { textOf, viewOf } from '../support/change-flow.js';
import { type FakeSlack, type SlackCall, startFakeSlack, TEST_USERS } from '../support/fake-slack.js';
import { freshPostgresDatabase, postgresSkipReason } from '../support/postgres.js';
import { redisSkipReason, startTestRedis, type TestRedis } from '../support/redis.js';
import { eventsUrlOf, localAppEnv, type MainProcess, runMain } from '../support/run-main.js';
import {
  appHomeOpenedBody,
  commandBody,
  opsButtonClickBody,
  slackHeaders,
  viewSubmissionBody,
} from '../support/slack-signing.js';
import { until } from '../support/until.js';

/** Replicas take their time (a takeover waits out a lease): 30 s rather than the helper's 10. */
const slowly = (what: string, check: () => boolean, timeoutMs = 30_000) => until(what, check, timeoutMs);

const SECRET = 'replicas0signing0secret0for0tests';
const BOT = 'xoxb-rep';
const ALERTS = 'C0ALERTS01';
const BULK_POOL = '2007';
const ROWS = 8;

let redis: TestRedis;
let slack: FakeSlack;
let sandbox: RunningSandbox;
let replicas: MainProcess[] = [];
let seq = 0;

beforeAll(async () => {
  if (redisSkipReason === undefined) redis = await startTestRedis();
});
afterAll(async () => {
  await redis?.close();
});

afterEach(async () => {
  for (const r of replicas) r.child.kill('SIGKILL');
  await Promise.all(replicas.map((r) => r.exited));
  replicas = [];
  await sandbox?.close();
  await slack?.close();
  if (redis) await redis.flush(redis.url);
});

async function startWorld(): Promise<void> {
  slack = await startFakeSlack({ botToken: BOT });
  const data = buildDemoData(new Date());
  const pool = data.pools.find((p) => p.id === BULK_POOL);
  if (pool) pool.licenses += ROWS + 5;
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, seed: data, rateLimit: false });
}

/**
 * Two replicas on the same Redis and the same (fresh) PostgreSQL database, each with a DATA_DIR of its
 * own; resolves with their events URLs.
 */
async function startReplicas(extra: Record<string, string> = {}): Promise<string[]> {
  const databaseUrl = await freshPostgresDatabase();
  const env = localAppEnv(
    {
      slackApiUrl: slack.apiUrl,
      sandboxUrl: sandbox.url,
      sandboxToken: sandbox.adminToken,
      botToken: BOT,
      signingSecret: SECRET,
    },
    {
      LICENSING_RATE_LIMIT_PER_MINUTE: '600',
      LICENSE_ADMINS: TEST_USERS.admin,
      REDIS_URL: redis.url,
      DATABASE_URL: databaseUrl,
      ...extra,
    },
  );
  replicas = [runMain(env), runMain(env)];
  return Promise.all(replicas.map((r) => eventsUrlOf(r, 30_000)));
}

async function post(url: string, body: string, contentType?: string): Promise<{ status: number; text: string }> {
  const headers = slackHeaders(SECRET, body, contentType ? { contentType } : {});
  const res = await fetch(url, { method: 'POST', headers, body });
  return { status: res.status, text: await res.text() };
}

const lines = (r: MainProcess, message: string) =>
  r
    .output()
    .stdout.split('\n')
    .filter((l) => l.includes(`"message":"${message}"`));

/** Opens the bulk form on one replica, checks a list and starts the job there; resolves with the e-mails. */
async function startBulkJob(url: string, tag: string): Promise<string[]> {
  const emails = Array.from({ length: ROWS }, (_, i) => `${tag}${i + 1}@contoso.com`);

  // The form, its check, then the start: all on one replica (the check is kept where it ran).
  const from = slack.calls.length;
  await post(
    url,
    commandBody({
      team_id: 'T0ACME0001',
      channel_id: 'C0LICOPS01',
      user_id: TEST_USERS.admin,
      user_name: 'dana.lee',
      command: '/licenses',
      text: 'bulk',
      api_app_id: 'A0LICBOT01',
      response_url: slack.responseUrl('bulk-open'),
      trigger_id: `${Date.now()}.${++seq}.trigger`,
    }),
  );
  const form = await slack.waitForCall(
    'views.update',
    (c) => slack.calls.indexOf(c) >= from && viewOf(c).callback_id === DeskCallbackId.bulkForm,
    20_000,
  );
  const submit = (view: { id: string; callback_id: string; private_metadata?: string }, state: unknown) =>
    post(url, viewSubmissionBody(view, state, `${Date.now()}.${++seq}.trigger`));
  const lists = Object.fromEntries(
    [1, 2, 3, 4, 5].map((n) => {
      const id = BulkInputId.list(n);
      return [id.block, { [id.action]: { type: 'plain_text_input', value: n === 1 ? emails.join('\n') : null } }];
    }),
  );
  const checked = JSON.parse(
    (
      await submit(
        { ...viewOf(form), id: 'V0BULKFORM' },
        {
          values: {
            [BulkInputId.pool.block]: {
              [BulkInputId.pool.action]: {
                type: 'static_select',
                selected_option: { value: BULK_POOL, text: { type: 'plain_text', text: BULK_POOL } },
              },
            },
            [BulkInputId.endDate.block]: {
              [BulkInputId.endDate.action]: { type: 'datepicker', selected_date: null },
            },
            ...lists,
          },
        },
      )
    ).text,
  ) as { view?: { external_id?: string } };
  const report = await slack.waitForCall(
    'views.update',
    (c) => c.args.external_id !== undefined && c.args.external_id === checked.view?.external_id,
    20_000,
  );
  expect(textOf(viewOf(report).blocks)).toMatch(new RegExp(`ready: ${ROWS}`));
  // Each assign takes a while, so the job is still running when its replica is killed.
  sandbox.addFault({ kind: 'latency', latencyMs: 600, method: 'POST' });
  const started = await submit(
    { ...viewOf(report), id: 'V0BULKCONF', callback_id: DeskCallbackId.bulkConfirm },
    { values: {} },
  );
  expect(JSON.parse(started.text)).toMatchObject({ response_action: 'clear' });

  return emails;
}

const bulkAssigns = () =>
  sandbox.requests.filter((r) => r.method === 'POST' && r.url === `/v1/pool/${BULK_POOL}/license`);

describe.skipIf(redisSkipReason !== undefined || postgresSkipReason() !== undefined)(
  'two replicas with one Redis and one database',
  () => {
    it('post the daily alerts once when both run their daily check', async () => {
      await startWorld();
      await startReplicas({ ALERT_CHANNEL: ALERTS, ALERT_TIME: '00:00', ALERT_TIMEZONE: 'UTC' });
      const ran = () => replicas.filter((r) => lines(r, 'alert check done').length > 0);
      const skipped = () =>
        replicas.filter(
          (r) =>
            lines(r, "daily check: another replica is running today's check").length > 0 ||
            lines(r, "daily check: today's check already ran").length > 0,
        );
      await slowly(
        'one replica to run the check and the other to stand aside',
        () => ran().length + skipped().length >= 2,
      );
      expect(ran()).toHaveLength(1);
      const [done] = ran().flatMap((r) => lines(r, 'alert check done'));
      const messages = (JSON.parse(done ?? '{}') as { messages?: number }).messages ?? 0;
      expect(messages).toBeGreaterThan(0);
      const alertPosts = slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === ALERTS);
      expect(alertPosts).toHaveLength(messages);
    }, 90_000);

    it('a double click whose clicks reach different replicas revokes once', async () => {
      await startWorld();
      const urls = await startReplicas();
      const click = (url: string) =>
        post(
          url,
          opsButtonClickBody(
            { actionId: ChangeActionId.revokeConfirm, blockId: 'revoke', value: '4005' },
            { ts: '1767225600.000300', responseUrl: slack.responseUrl('double-click') },
            `${Date.now()}.${++seq}.trigger`,
          ),
        );
      const answers = await Promise.all(urls.map((url) => click(url)));
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      await slack.waitForResponse('double-click', (p) => textOf(p.body).includes('Revoked license'), 20_000);
      await slowly('the repeat to be turned away', () =>
        replicas.some((r) => lines(r, 'repeated revoke click ignored').length > 0),
      );
      const deletes = sandbox.requests.filter((r) => r.method === 'DELETE');
      expect(deletes).toHaveLength(1);
      expect(replicas.flatMap((r) => lines(r, 'repeated revoke click ignored'))).toHaveLength(1);
    }, 90_000);

    it("a revoke made through one replica shows in the other's App Home 'Recent changes', with who did what", async () => {
      await startWorld();
      const [urlA, urlB] = await startReplicas();
      const revoked = await post(
        urlA ?? '',
        opsButtonClickBody(
          { actionId: ChangeActionId.revokeConfirm, blockId: 'revoke', value: '4005' },
          { ts: '1767225600.000400', responseUrl: slack.responseUrl('revoke-on-a') },
          `${Date.now()}.${++seq}.trigger`,
        ),
      );
      expect(revoked.status).toBe(200);
      await slack.waitForResponse('revoke-on-a', (p) => textOf(p.body).includes('Revoked license'), 20_000);
      expect(sandbox.requests.filter((r) => r.method === 'DELETE')).toHaveLength(1);

      // The admin opens App Home; the event reaches replica B, which never saw the revoke.
      const from = slack.calls.length;
      const opened = await post(urlB ?? '', appHomeOpenedBody(TEST_USERS.admin, `Ev0REP${++seq}`), 'application/json');
      expect(opened.status).toBe(200);
      const published = await slack.waitForCall(
        'views.publish',
        (c) =>
          slack.calls.indexOf(c) >= from &&
          c.args.user_id === TEST_USERS.admin &&
          textOf(viewOf(c).blocks).includes('Recent changes'),
        20_000,
      );
      const home = textOf(viewOf(published).blocks);
      const recent = home.slice(home.indexOf('Recent changes'));
      // Who (the admin, as a mention) did what (revoked) to which license.
      expect(recent).toContain(`<@${TEST_USERS.admin}> revoked license \`4005\``);
    }, 90_000);

    it('a bulk job whose replica is killed mid-job finishes on the other, each row assigned once', async () => {
      await startWorld();
      const urls = await startReplicas({ BULK_TAKEOVER_SECONDS: '4' });
      const emails = await startBulkJob(urls[0] ?? '', 'takeover');
      const assigns = bulkAssigns;
      // The replica that runs the job (the one that started it): killed once it has assigned a few rows.
      await slowly('a replica to run the job', () => replicas.some((r) => lines(r, 'running a bulk job').length > 0));
      const runner = replicas.find((r) => lines(r, 'running a bulk job').length > 0);
      const other = replicas.find((r) => r !== runner);
      if (!runner || !other) throw new Error('no replica ran the job');
      await slowly('a few rows to be sent', () => assigns().length >= 3);
      runner.child.kill('SIGKILL');
      await runner.exited;
      const sentBeforeKill = assigns().length;
      expect(sentBeforeKill).toBeLessThan(ROWS);

      await other.waitFor(/"message":"bulk job finished"/, 60_000);
      // It ran the job because the dead replica's lease ran out, not because anyone handed it over.
      expect(lines(other, 'taking over a bulk job nobody holds')).toHaveLength(1);
      // Exactly one write per student reached the service across both replicas, and one license each.
      // The write in flight when the replica died was dropped by the sandbox unanswered (status 0: the
      // client was gone) and never applied; the other replica read back, found nothing, and sent it.
      expect(assigns().filter((r) => r.status !== 0)).toHaveLength(ROWS);
      expect(assigns().length).toBeLessThanOrEqual(ROWS + 1);
      const licenses = sandbox.inspect.licenses({ poolId: BULK_POOL, includeInactive: true });
      for (const email of emails) expect(licenses.filter((l) => l.student.email === email)).toHaveLength(1);
      // The replica that took over kept editing the one progress message the first one posted.
      const isProgress = (c: SlackCall) => textOf(c.args).includes('Bulk assignment');
      const posted = slack.calls.filter((c) => c.method === 'chat.postMessage' && !c.args.thread_ts && isProgress(c));
      expect(posted).toHaveLength(1);
      const updates = slack.calls.filter((c) => c.method === 'chat.update' && isProgress(c));
      expect(new Set(updates.map((c) => c.args.ts)).size).toBe(1);
      expect(textOf(updates.at(-1)?.args)).toContain(`${ROWS} of ${ROWS} assigned`);
    }, 120_000);

    it('a replica stopped (SIGTERM) mid-job lets go of its lease: the other takes the job at once and finishes it, each row assigned once', async () => {
      await startWorld();
      // A takeover after a death would wait for the 60 s lease: the job moving on sooner is the hand-back.
      const urls = await startReplicas({ BULK_TAKEOVER_SECONDS: '60' });
      const emails = await startBulkJob(urls[0] ?? '', 'handback');
      await slowly('a replica to run the job', () => replicas.some((r) => lines(r, 'running a bulk job').length > 0));
      const runner = replicas.find((r) => lines(r, 'running a bulk job').length > 0);
      const other = replicas.find((r) => r !== runner);
      if (!runner || !other) throw new Error('no replica ran the job');
      await slowly('a few rows to be sent', () => bulkAssigns().length >= 2);
      runner.child.kill('SIGTERM');
      expect(await runner.exited).toBe(0);
      expect(lines(runner, 'bulk job paused for shutdown; another replica or the next start carries on')).toHaveLength(
        1,
      );

      await other.waitFor(/"message":"bulk job finished"/, 40_000);
      expect(lines(other, 'taking over a bulk job nobody holds')).toHaveLength(1);
      expect(bulkAssigns().filter((r) => r.status !== 0)).toHaveLength(ROWS);
      const licenses = sandbox.inspect.licenses({ poolId: BULK_POOL, includeInactive: true });
      for (const email of emails) expect(licenses.filter((l) => l.student.email === email)).toHaveLength(1);
    }, 120_000);
  },
);
