/**
 * Kill-and-restart tests of the real process: dist/main.js (the bundle, or `npm start` in a process group
 * of its own) in HTTP mode, in front of the recording Slack double and the licensing sandbox, each behind a
 * holding proxy, so that a test can stop one request where it wants:
 *
 * - `phase: 'before'`: the request reaches the proxy and goes no further (the licensing service never
 *   sees the write; Slack never accepts the message) and is never answered;
 * - `phase: 'after'`: the proxy forwards it, the service applies it and answers, and the answer is
 *   kept from the app (a write applied whose answer is pending).
 *
 * The test then kills the process with SIGKILL, starts it again on the same DATA_DIR with the same
 * settings and the same doubles, and reads what the Slack double accepted and what the sandbox holds.
 * Everything that outlives the process (the doubles, the proxies, DATA_DIR) belongs to the test.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { startSandbox } from '../../local/sandbox/index.js';
import type { RunningSandbox } from '../../local/sandbox/types.js';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import type { License } from '../../src/kernel/domain/types.js';
import { TEST_BOT_TOKEN } from './app-harness.js';
import { type FakeSlack, type LocalSlackUser, type SlackCall, startFakeSlack, TEST_USERS } from './fake-slack.js';
import { allText, buttons } from './fixtures.js';
import { requestFormView } from './requests.js';
import { eventsUrlOf, localAppEnv, type MainProcess, runMain } from './run-main.js';
import { commandBody, interactionBody, slackHeaders, viewSubmissionBody } from './slack-signing.js';
import { until } from './until.js';

/** A request the proxy stopped, as it arrived. */
export interface HeldRequest {
  method: string;
  /** The path with its query string. */
  url: string;
  body: string;
  /** 'after': the status the service answered, which the app never got. */
  status?: number;
}

export interface HoldRule {
  method?: string;
  /** Tested against the path without the query string. */
  path?: RegExp;
  /** Tested against the raw request body (a Slack call: form fields; a licensing write: JSON). */
  body?: (raw: string) => boolean;
  phase: 'before' | 'after';
}

export interface Hold {
  /** Set once a request matched and is held: when it arrived ('before') or the service answered it ('after'). */
  readonly request: HeldRequest | undefined;
  /**
   * Lets the held request go on, as a network that was only slow: 'before' forwards it to the service
   * and gives the app its answer; 'after' gives the app the answer the service gave. A no-op once the
   * app has gone away.
   */
  release(): void;
}

export interface HoldingProxy {
  /** Where the app is pointed instead of the service. */
  url: string;
  /** Holds the next request that matches `rule` (once); wait for `request` with until(). */
  hold(rule: HoldRule): Hold;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'upgrade']);

function readAll(stream: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => resolve(Buffer.concat(chunks)));
    stream.on('error', reject);
  });
}

/** A pass-through HTTP proxy to `target` (http://host:port) that holds the requests it is told to. */
export async function startHoldingProxy(target: string): Promise<HoldingProxy> {
  const upstream = new URL(target);
  const rules: { rule: HoldRule; held: (r: HeldRequest) => void; released: Promise<void> }[] = [];

  const forward = (req: IncomingMessage, body: Buffer): Promise<{ res: IncomingMessage; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())),
      ) as Record<string, string | string[]>;
      const out = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...headers, 'content-length': String(body.length) },
          agent: false,
        },
        (res) => {
          readAll(res).then((b) => resolve({ res, body: b }), reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const body = await readAll(req);
      const method = (req.method ?? 'GET').toUpperCase();
      const path = new URL(req.url ?? '/', 'http://proxy.local').pathname;
      const raw = body.toString('utf8');
      const at = rules.findIndex(
        ({ rule }) =>
          (rule.method === undefined || rule.method.toUpperCase() === method) &&
          (rule.path === undefined || rule.path.test(path)) &&
          (rule.body === undefined || rule.body(raw)),
      );
      const found = at >= 0 ? rules.splice(at, 1)[0] : undefined;
      const held: HeldRequest = { method, url: req.url ?? '/', body: raw };
      if (found?.rule.phase === 'before') {
        // Not forwarded, not answered until released: the connection stays open meanwhile.
        found.held(held);
        await found.released;
      }
      const answer = await forward(req, body);
      if (found?.rule.phase === 'after') {
        // Applied by the service; its answer is kept from the app until released.
        found.held({ ...held, status: answer.res.statusCode ?? 0 });
        await found.released;
      }
      if (res.destroyed) return;
      const headers = Object.fromEntries(
        Object.entries(answer.res.headers).filter(([k]) => !HOP_BY_HOP.has(k.toLowerCase())),
      ) as Record<string, string | string[]>;
      res.writeHead(answer.res.statusCode ?? 502, { ...headers, 'content-length': String(answer.body.length) });
      res.end(answer.body);
    })().catch(() => {
      if (!res.headersSent) res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hold(rule) {
      let release = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const hold: { request: HeldRequest | undefined; release: () => void } = { request: undefined, release };
      rules.push({ rule, held: (r) => (hold.request = r), released });
      return hold;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A Slack Web API call's form fields (as @slack/web-api posts them), or {} for another body. */
export function slackFields(raw: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw));
}

/** Where a DM to `user` goes: the channel the Slack double opens for them (conversations.open), or their id. */
const isDmTo = (user: string, channel: unknown) => channel === `D${user.slice(1)}` || channel === user;

export interface KillRestartOptions {
  /** Slack users besides the cast of fake-slack.ts. */
  users?: LocalSlackUser[];
  /** Settings added to the harness's (HTTP mode, the doubles behind their proxies, DATA_DIR). */
  env?: Record<string, string>;
  /** Start with `npm start` in a process group of its own (dist/ built first) instead of node dist/main.js. */
  npmStart?: boolean;
}

export interface KilledDesk {
  slack: FakeSlack;
  sandbox: RunningSandbox;
  /** In front of the sandbox: LICENSING_API_URL. */
  licensing: HoldingProxy;
  /** In front of the Slack double: SLACK_API_URL. */
  slackApi: HoldingProxy;
  dataDir: string;
  /** The running process, if any. */
  readonly main: MainProcess | undefined;
  /** Every process started, in order (their output stays readable after a kill). */
  readonly runs: readonly MainProcess[];
  /** Starts the process on DATA_DIR with the settings; resolves once it listens. */
  start(): Promise<MainProcess>;
  /** Starts the process without waiting for it to listen (for a start that must refuse). */
  launch(): MainProcess;
  /** SIGKILL (to the process group under npm start); resolves once it is gone. */
  kill(): Promise<void>;
  /**
   * SIGKILL, then the same process again on the same DATA_DIR and settings. Resolves once it listens,
   * with how many Slack calls the double had accepted before the restart.
   */
  killAndRestart(): Promise<number>;
  /** A signed POST to the running process's /slack/events. */
  post(body: string): Promise<{ status: number; text: string }>;
  /** A signed Events API callback (JSON) carrying `event`, as Slack sends it. */
  event(event: Record<string, unknown>): Promise<{ status: number; text: string }>;
  /** `/licenses <text>` by `user`; its replies go to response_url `responseId`. */
  command(text: string, user: string, responseId: string): Promise<{ status: number; text: string }>;
  /** A button click by `user` on a message in `channel`; replies to response_url `responseId`. */
  click(
    actionId: string,
    value: string,
    user: string,
    where: { channel: string; responseId: string },
  ): Promise<{ status: number; text: string }>;
  /** A modal submitted by `user`. */
  submit(
    view: { id: string; callback_id: string; private_metadata?: string; state: unknown },
    user: string,
  ): Promise<{
    status: number;
    text: string;
  }>;
  /** The DMs to `user` the Slack double accepted (chat.postMessage) whose text has `words`. */
  dmsTo(user: string, words: string | RegExp): SlackCall[];
  /** The texts of the DMs to `user` that the Slack double accepted more than once (a person told twice). */
  repeatedDms(user: string): string[];
  /** Holds the next DM to `user` whose text has `words` before Slack: it is never accepted. */
  holdDm(user: string, words: string | RegExp): Hold;
  /** Holds the next license assign in `poolId` (POST /v1/pool/<id>/license) before or after the service. */
  holdAssign(poolId: string, phase: HoldRule['phase']): Hold;
  close(): Promise<void>;
}

const SECRET = 'kill0restart0signing0secret0for0tests';
/** The project's one fake bot token for tests. */
const BOT = TEST_BOT_TOKEN;

export async function startKilledDesk(options: KillRestartOptions = {}): Promise<KilledDesk> {
  const slack = await startFakeSlack({ botToken: BOT, ...(options.users ? { users: options.users } : {}) });
  const sandbox = await startSandbox({ host: '127.0.0.1', port: 0, rateLimit: false });
  const licensing = await startHoldingProxy(sandbox.url);
  const slackApi = await startHoldingProxy(slack.url);
  const dataDir = mkdtempSync(join(tmpdir(), 'license-desk-kill-'));
  const runs: MainProcess[] = [];
  let main: MainProcess | undefined;
  let eventsUrl = '';
  let seq = 0;

  const env = localAppEnv(
    {
      slackApiUrl: `${slackApi.url}/api/`,
      sandboxUrl: licensing.url,
      sandboxToken: sandbox.adminToken,
      botToken: BOT,
      signingSecret: SECRET,
    },
    { LICENSE_ADMINS: TEST_USERS.admin, REQUESTERS: '*', DATA_DIR: dataDir, ...options.env },
  );

  const post = async (body: string) => {
    const res = await fetch(eventsUrl, { method: 'POST', headers: slackHeaders(SECRET, body), body });
    return { status: res.status, text: await res.text() };
  };
  const person = (user: string) => ({
    id: user,
    username: user.toLowerCase(),
    name: user.toLowerCase(),
    team_id: 'T0ACME0001',
  });

  const desk: KilledDesk = {
    slack,
    sandbox,
    licensing,
    slackApi,
    dataDir,
    get main() {
      return main;
    },
    runs,
    launch() {
      if (main) throw new Error('the process is still running: kill it first');
      const started = runMain(env, options.npmStart ? { npmStart: true } : {});
      main = started;
      runs.push(started);
      void started.exited.then(() => {
        if (main === started) main = undefined;
      });
      return started;
    },
    async start() {
      const started = desk.launch();
      eventsUrl = await eventsUrlOf(started, options.npmStart ? 60_000 : 30_000);
      return started;
    },
    async kill() {
      const running = main;
      if (!running) return;
      const pid = running.child.pid;
      try {
        if (options.npmStart && pid !== undefined) process.kill(-pid, 'SIGKILL');
        else running.child.kill('SIGKILL');
      } catch {
        // gone already
      }
      await running.exited;
      main = undefined;
    },
    async killAndRestart() {
      await desk.kill();
      const from = slack.calls.length;
      await desk.start();
      return from;
    },
    post,
    async event(event) {
      const body = JSON.stringify({
        token: 'qWeRtY1234567890AsDfGhJk',
        team_id: 'T0ACME0001',
        api_app_id: 'A0LICBOT01',
        event: { event_ts: `${Date.now() / 1000}`, ...event },
        type: 'event_callback',
        event_id: `Ev0KILL${++seq}`,
        event_time: Math.floor(Date.now() / 1000),
        authorizations: [{ team_id: 'T0ACME0001', user_id: 'U0LICBOT01', is_bot: true, is_enterprise_install: false }],
      });
      const headers = slackHeaders(SECRET, body, { contentType: 'application/json' });
      const res = await fetch(eventsUrl, { method: 'POST', headers, body });
      return { status: res.status, text: await res.text() };
    },
    command: (text, user, responseId) =>
      post(
        commandBody({
          team_id: 'T0ACME0001',
          channel_id: 'C0LICOPS01',
          user_id: user,
          user_name: user.toLowerCase(),
          command: '/licenses',
          text,
          api_app_id: 'A0LICBOT01',
          response_url: slack.responseUrl(responseId),
          trigger_id: `${Date.now()}.${++seq}.trigger`,
        }),
      ),
    click: (actionId, value, user, where) => {
      const ts = `${Date.now() / 1000}`;
      return post(
        interactionBody({
          type: 'block_actions',
          user: person(user),
          api_app_id: 'A0LICBOT01',
          token: 'qWeRtY1234567890AsDfGhJk',
          container: { type: 'message', message_ts: ts, channel_id: where.channel },
          trigger_id: `${Date.now()}.${++seq}.trigger`,
          team: { id: 'T0ACME0001', domain: 'acme-learning' },
          channel: { id: where.channel, name: 'license-desk' },
          state: { values: {} },
          response_url: slack.responseUrl(where.responseId),
          actions: [{ action_id: actionId, block_id: 'b', type: 'button', value, action_ts: ts }],
        }),
      );
    },
    submit: (view, user) =>
      post(
        viewSubmissionBody(view, view.state, `${Date.now()}.${++seq}.trigger`, { id: user, name: user.toLowerCase() }),
      ),
    holdDm: (user, words) =>
      slackApi.hold({
        method: 'POST',
        path: /^\/api\/chat\.postMessage$/,
        body: (raw) => {
          const fields = slackFields(raw);
          const text = `${fields.blocks ?? ''}\n${fields.text ?? ''}`;
          return isDmTo(user, fields.channel) && (typeof words === 'string' ? text.includes(words) : words.test(text));
        },
        phase: 'before',
      }),
    holdAssign: (poolId, phase) =>
      licensing.hold({ method: 'POST', path: new RegExp(`^/v1/pool/${poolId}/license$`), phase }),
    repeatedDms(user) {
      const texts = desk.dmsTo(user, '').map((c) => allText(c.args.blocks));
      return [...new Set(texts.filter((t, i) => texts.indexOf(t) !== i))];
    },
    dmsTo: (user, words) =>
      slack.calls.filter((c) => {
        if (c.method !== 'chat.postMessage' || !isDmTo(user, c.args.channel)) return false;
        const text = allText(c.args.blocks);
        return typeof words === 'string' ? text.includes(words) : words.test(text);
      }),
    async close() {
      await desk.kill();
      await licensing.close();
      await slackApi.close();
      await sandbox.close();
      await slack.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return desk;
}

/** A member's course request as the kill-restart tests follow it from outside. */
export interface WatchedRequest {
  /** The requests channel, where its card goes. */
  channel: string;
  pool: string;
  /** The member who asks. */
  requester: string;
  /** The requester's e-mail, which the licensing service keeps on their license. */
  email: string;
  /** The words of the DM that gives the requester the license. */
  yours: string | RegExp;
}

/** Nora Quinn (the cast's member with no role) asks for pool 2005 (it has free seats), cards to C0REQUESTS1. */
export const NORA_ASKS: WatchedRequest = {
  channel: 'C0REQUESTS1',
  pool: '2005',
  requester: TEST_USERS.nobody,
  email: 'nora.quinn@acme-learning.example',
  /** "license `4321` is yours": the DM that gives the license (not one saying it is being assigned). */
  yours: /license `\d+` is yours/,
};

/** The request's card as it reads now: its text, its buttons' action ids, and how many updates came after a count of Slack calls. */
export interface RequestCard {
  text: string;
  actions: string[];
  updatesSince: number;
}

/** What people and the licensing service show of one request on the desk `desk()` (read at each call: a test may start another). */
export function watchRequest(desk: () => KilledDesk, r: WatchedRequest) {
  const watch = {
    /** Every license the requester ever held in the pool (inactive ones too), as the licensing service keeps them. */
    licenses: (): License[] =>
      desk()
        .sandbox.inspect.licenses({ poolId: r.pool, includeInactive: true })
        .filter((l) => l.student.email === r.email),
    /** The DMs the Slack double accepted that give the requester the license. */
    yours: (): SlackCall[] => desk().dmsTo(r.requester, r.yours),
    /** The license assigns in the pool that reached the licensing service (POST /v1/pool/<id>/license). */
    assignPosts: () =>
      desk().sandbox.requests.filter((q) => q.method === 'POST' && q.url === `/v1/pool/${r.pool}/license`),
    /** The card as it reads now (its last post or update in the requests channel); `updatesSince` counts the updates from Slack call `from` on. */
    card(from = 0): RequestCard {
      const calls = desk().slack.calls;
      const copies = calls.filter(
        (c) =>
          (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
          c.args.channel === r.channel &&
          allText(c.args.blocks).includes(`<@${r.requester}>`),
      );
      const last = copies.at(-1);
      return {
        text: allText(last?.args.blocks),
        actions: buttons(last?.args).map((b) => b.action_id),
        updatesSince: copies.filter((c) => c.method === 'chat.update' && calls.indexOf(c) >= from).length,
      };
    },
    /**
     * The requester asks with the signed request form (view `viewId`) and the card reaches the requests
     * channel within `timeoutMs`: the request's id, as the card's Approve button carries it.
     */
    async askWithForm(viewId: string, timeoutMs = 15_000): Promise<string> {
      expect((await desk().submit(requestFormView(viewId, r.pool), r.requester)).status).toBe(200);
      const posted = await desk().slack.waitForCall(
        'chat.postMessage',
        (c) => c.args.channel === r.channel && allText(c.args.blocks).includes(`<@${r.requester}>`),
        timeoutMs,
      );
      return String(buttons(posted.args).find((b) => b.action_id === RequestActionId.approve)?.value);
    },
    /**
     * With the pool full, the requester asks (view `viewId`), `admin` approves ("is full") and adds the
     * request to the waitlist: the requester is told they are number 1. The request's id.
     */
    async waitlistedFirst(viewId: string, admin: string): Promise<string> {
      await desk().start();
      expect(desk().sandbox.inspect.pool(r.pool)?.availableLicenses).toBe(0);
      const id = await watch.askWithForm(viewId);
      await desk().click(RequestActionId.approve, id, admin, { channel: r.channel, responseId: 'approve' });
      await desk().slack.waitForResponse('approve', (p) => allText(p.body).includes('is full'), 15_000);
      await desk().click(RequestActionId.waitlist, id, admin, { channel: r.channel, responseId: 'waitlist' });
      const told = () => desk().dmsTo(r.requester, 'waitlist, number 1').length > 0;
      await until('the requester to be told her place', told, 15_000);
      return id;
    },
    /** Waits (up to `timeoutMs`) for the requester's DM that the request was received. */
    async untilReceived(timeoutMs = 15_000): Promise<void> {
      await until(
        'the requester to be told the request was received',
        () => desk().dmsTo(r.requester, 'was received').length > 0,
        timeoutMs,
      );
    },
    /**
     * What a settled assign leaves: the requester told (within `settleMs`) that the license is theirs,
     * the card saying it is assigned (and whatever `cardDone` adds), then, given two seconds for a second
     * write or DM to show, exactly one license, active, named in the one DM and on the card, and no DM to
     * the requester twice.
     */
    async expectAssignedOnce(settleMs: number, cardDone: (card: RequestCard) => boolean = () => true): Promise<void> {
      await until('the requester to be told the license is theirs', () => watch.yours().length >= 1, settleMs, 200);
      await until(
        'the card to show the license assigned',
        () => /license `\d+` assigned/.test(watch.card().text) && cardDone(watch.card()),
        settleMs,
        200,
      );
      // A second DM or a second write would come right behind the first: give them the time to.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const held = watch.licenses();
      expect(held).toHaveLength(1);
      expect(held[0]?.active).toBe(true);
      expect(watch.yours()).toHaveLength(1);
      expect(allText(watch.yours()[0]?.args.blocks)).toContain(`license \`${held[0]?.id}\``);
      expect(watch.card().text).toContain(`license \`${held[0]?.id}\``);
      // Nobody hears the same thing twice.
      expect(desk().repeatedDms(r.requester)).toEqual([]);
    },
  };
  return watch;
}
