/**
 * The local console's back end: serves the page (local/console/public/, plain ES modules, no build step)
 * and the two browser libraries it imports, streams the console's Slack state to the page as
 * Server-Sent Events, and turns what the person does in the page (a command, a click, a submission, a
 * close, opening App Home) into the signed HTTP request Slack would send to /slack/events.
 * Mounted as Bolt custom routes on the app's own port, and only in the local demo (src/kernel/config/config.ts).
 */
import { createHmac } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CustomRoute } from '@slack/bolt';
import type { Logger } from '../../src/kernel/licensing/types.js';
import type { LocalSlack, LocalSlackUser, SlackCall } from '../slack/local-slack.js';
import { type ConsoleChannel, type ConsoleView, createWorld, type World } from './world.js';

type Json = Record<string, unknown>;

/** A global shortcut of the app (manifest.yml), as the console's shortcut menu offers it. */
export interface ConsoleShortcut {
  callbackId: string;
  name: string;
}

/** What "Post the weekly digest now" did: queued, or this week's was already posted, or no digest channel. */
export type DigestPostNow = 'enqueued' | 'claimed' | 'off';

export interface ConsoleOptions {
  users: LocalSlackUser[];
  roleLabels: Record<string, string>;
  /** The channels shown; the first is where commands are typed. */
  channels: ConsoleChannel[];
  signingSecret: string;
  botUserId: string;
  team: { id: string; domain: string };
  appId: string;
  logger: Logger;
  /** What the composer shows under a `/`: the slash command's usage hint, as the manifest declares it. */
  usageHint?: string;
  /** The global shortcuts the page's shortcut menu offers (manifest.yml's). */
  shortcuts?: ConsoleShortcut[];
  /** The clock of the trigger-id expiry (tests). */
  now?: () => number;
}

export interface LocalConsole {
  world: World;
  routes: CustomRoute[];
  /** For startLocalSlack's options. */
  intercept: (call: SlackCall, builtIn: () => Json) => Json;
  onResponse: World['onResponse'];
  /** The Slack double the app talks to (its upload store and response_urls). */
  attach(local: LocalSlack): void;
  /**
   * What the page's "run the alert check now" does (the desk's scheduler, once it runs), for the
   * person shown: told in the alert channel when nothing was new.
   */
  setAlertCheck(run: (userId: string) => Promise<string>): void;
  /** What the page's "post the weekly digest now" does (the digest's own claim and post, through the outbox). */
  setDigestPost(run: () => Promise<DigestPostNow>): void;
  /** Ends the event streams (an open stream would keep the HTTP server from closing). */
  close(): void;
}

/** Slack gives an app 3 s to acknowledge (platform.md, the 3-second rule). */
const ACK_LIMIT_MS = 3000;
const MAX_BODY = 256 * 1024;

const PUBLIC_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'console.js': 'text/javascript; charset=utf-8',
  'blocks.js': 'text/javascript; charset=utf-8',
  'mrkdwn.js': 'text/javascript; charset=utf-8',
  'charts.js': 'text/javascript; charset=utf-8',
  'style.css': 'text/css; charset=utf-8',
};

/** tsx runs this file from local/console; the build runs it bundled in a chunk of dist/, beside no public/. */
function publicDir(): string {
  const candidates = [
    fileURLToPath(new URL('./public/', import.meta.url)),
    fileURLToPath(new URL('../local/console/public/', import.meta.url)),
  ];
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? (candidates[0] as string);
}

/**
 * The two libraries the page imports. They are devDependencies (the product never loads them), so an
 * install without them (`npm ci --omit=dev`) has none: the local mode asks this before it builds the
 * console, and says what to do instead of failing on the first page load.
 */
export const CONSOLE_LIBRARIES = ['slack-message-parser', 'gemoji'] as const;

/** Which of CONSOLE_LIBRARIES this install lacks, as a sentence with the fix; undefined when all are there. */
export function missingConsoleLibraries(
  resolve: (name: string) => string = (name) => import.meta.resolve(name),
): string | undefined {
  const missing = CONSOLE_LIBRARIES.filter((name) => {
    try {
      resolve(name);
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return undefined;
  return `the local console's page needs ${missing.join(' and ')}, development dependencies this install left out (npm ci --omit=dev): run npm ci (or npm install --include=dev) to serve the console, or set CONSOLE=0 to run the local demo without it`;
}

/** The exact files the packages ship, served as they are (both are plain browser ES modules). */
function vendorFiles(): Record<string, string> {
  const parser = dirname(fileURLToPath(import.meta.resolve('slack-message-parser')));
  const gemoji = fileURLToPath(import.meta.resolve('gemoji'));
  return {
    '/console/vendor/slack-message-parser/mod.js': join(parser, 'mod.js'),
    '/console/vendor/slack-message-parser/parser.js': join(parser, 'parser.js'),
    '/console/vendor/slack-message-parser/combinator.js': join(parser, 'combinator.js'),
    '/console/vendor/slack-message-parser/types/Node.js': join(parser, 'types', 'Node.js'),
    '/console/vendor/slack-message-parser/types/Parser.js': join(parser, 'types', 'Parser.js'),
    '/console/vendor/gemoji/index.js': gemoji,
  };
}

class BadRequest extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

/** Loopback only, and JSON only: another web site open in the same browser cannot drive the console. */
function checkOrigin(req: IncomingMessage): void {
  const host = (req.headers.host ?? '').replace(/:\d+$/, '');
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host)) {
    throw new BadRequest(403, 'The console answers on localhost only.');
  }
}

async function readJson(req: IncomingMessage): Promise<Json> {
  if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
    throw new BadRequest(415, 'Send JSON (content-type: application/json).');
  }
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new BadRequest(413, 'That request is too large for the console.');
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Json;
  } catch {
    throw new BadRequest(400, 'The console expected a JSON object.');
  }
}

/** Slack's should_escape: & < > become entities, @name and #channel become escaped mentions. */
export function escapeCommandText(text: string, users: LocalSlackUser[], channels: ConsoleChannel[]): string {
  const escaped = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  return escaped.replace(/(^|[\s(])([@#])([\w.-]+)/g, (whole, pre: string, sigil: string, name: string) => {
    if (sigil === '@') {
      if (['here', 'channel', 'everyone'].includes(name)) return `${pre}<!${name}>`;
      const u = users.find((x) => x.name.toLowerCase() === name.toLowerCase());
      return u ? `${pre}<@${u.id}|${u.name}>` : whole;
    }
    const c = channels.find((x) => x.kind === 'channel' && x.name === name);
    return c ? `${pre}<#${c.id}|${c.name}>` : whole;
  });
}

export function createConsole(options: ConsoleOptions): LocalConsole {
  let local: LocalSlack | undefined;
  const world = createWorld({
    users: options.users,
    roleLabels: options.roleLabels,
    channels: options.channels,
    botUserId: options.botUserId,
    upload: (id) => local?.uploads.find((u) => u.fileId === id),
    ...(options.now ? { now: options.now } : {}),
  });
  const streams = new Set<ServerResponse>();
  const dir = publicDir();
  const vendor = vendorFiles();
  const { team, appId } = options;

  const userOf = (id: unknown): LocalSlackUser => {
    const u = typeof id === 'string' ? world.user(id) : undefined;
    if (!u) throw new BadRequest(400, 'Pick who you are in the switcher first (unknown user).');
    return u;
  };
  const userField = (u: LocalSlackUser) => ({ id: u.id, username: u.name, name: u.name, team_id: team.id });

  /** Slack's two signature headers over `body` (v0, the demo's signing secret). */
  const signedHeaders = (body: string) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = `v0=${createHmac('sha256', options.signingSecret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
    return { 'x-slack-request-timestamp': String(timestamp), 'x-slack-signature': signature };
  };

  /**
   * "Ask Slackbot" (docs/slackbot.md): one MCP request to the app's own POST /mcp, signed as Slack signs
   * it, as the person shown: the tool list (no `name`), or a tool call with their Slack identity.
   */
  async function slackbot(req: IncomingMessage, b: Json): Promise<Json> {
    const me = userOf(b.user);
    const args = isObject(b.arguments) ? b.arguments : {};
    const slack = { user_id: me.id, team_id: team.id };
    const call =
      typeof b.name === 'string'
        ? { method: 'tools/call', params: { name: b.name, arguments: args, _meta: { slack } } }
        : { method: 'tools/list', params: {} };
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, ...call });
    const res = await fetch(`http://127.0.0.1:${req.socket.localPort}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        ...signedHeaders(body),
      },
      body,
      signal: AbortSignal.timeout(60_000),
    });
    if (res.status === 404)
      return { ok: false, error: 'The Slackbot tools are off: start License Desk with SLACKBOT_MCP=on.' };
    const answer = parseAck(await res.text());
    return { ok: res.ok, status: res.status, ...(answer ? { answer } : {}) };
  }

  /** Signs and posts `body` to the app's own /slack/events, as Slack does; reports a slow or failed ack. */
  async function deliver(
    req: IncomingMessage,
    body: string,
    what: string,
    contentType = 'application/x-www-form-urlencoded',
  ): Promise<{ status: number; text: string }> {
    const started = performance.now();
    let res: Response;
    try {
      res = await fetch(`http://127.0.0.1:${req.socket.localPort}/slack/events`, {
        method: 'POST',
        headers: { 'content-type': contentType, ...signedHeaders(body) },
        body,
        signal: AbortSignal.timeout(15_000),
      });
    } catch (error) {
      world.notice('error', `${what}: the app did not answer (${String(error)}); Slack would show an error.`);
      return { status: 0, text: '' };
    }
    const text = await res.text();
    const ms = performance.now() - started;
    if (ms > ACK_LIMIT_MS) {
      world.notice(
        'error',
        `${what}: the app acknowledged after ${(ms / 1000).toFixed(1)} s; Slack gives up after 3 s and shows the person an error.`,
      );
    }
    if (res.status !== 200) {
      world.notice('error', `${what}: the app answered HTTP ${res.status}; Slack would show the person an error.`);
    }
    return { status: res.status, text };
  }

  const interaction = (payload: unknown) => new URLSearchParams({ payload: JSON.stringify(payload) }).toString();

  function fullView(v: ConsoleView, values: unknown): Json {
    const stack = world.snapshot(v.userId).modals;
    const at = stack.findIndex((x) => x.id === v.id);
    return {
      ...v.view,
      id: v.id,
      team_id: team.id,
      type: v.kind,
      state: { values: isObject(values) ? values : {} },
      hash: v.hash,
      private_metadata: typeof v.view.private_metadata === 'string' ? v.view.private_metadata : '',
      callback_id: typeof v.view.callback_id === 'string' ? v.view.callback_id : '',
      root_view_id: v.kind === 'modal' ? (stack[0]?.id ?? v.id) : null,
      previous_view_id: at > 0 ? (stack[at - 1]?.id ?? null) : null,
      app_id: appId,
      bot_id: 'B0LICBOT01',
    };
  }

  async function command(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const channel = world.channelOf(b.channel) ?? options.channels[0];
    const text = typeof b.text === 'string' ? b.text.trim() : '';
    if (!channel) throw new BadRequest(400, 'No channel to type in.');
    if (!world.inChannel(u.id, channel.id)) throw notInChannel(channel);
    if (text.length > 4000) throw new BadRequest(400, 'That message is longer than Slack allows (4,000 characters).');
    const m = /^(\/\S+)\s*([\s\S]*)$/.exec(text);
    if (!m) {
      if (text) world.postAsUser(u.id, channel.id, escapeCommandText(text, options.users, options.channels));
      return { ok: true };
    }
    if (m[1] !== '/licenses') {
      world.notice('warning', `${m[1]} is not a valid command. In the local console, only /licenses is installed.`);
      return { ok: false, error: `${m[1]} is not a valid command; try /licenses help` };
    }
    const responseId = world.newResponseContext({ userId: u.id, channel: channel.id });
    const body = new URLSearchParams({
      token: 'local-console-verification-token',
      team_id: team.id,
      team_domain: team.domain,
      channel_id: channel.id,
      channel_name: channel.kind === 'dm' ? 'directmessage' : channel.name,
      user_id: u.id,
      user_name: u.name,
      command: '/licenses',
      text: escapeCommandText(m[2] ?? '', options.users, options.channels),
      api_app_id: appId,
      is_enterprise_install: 'false',
      response_url: local?.responseUrl(responseId) ?? '',
      trigger_id: world.newTrigger(u.id),
    }).toString();
    const ack = await deliver(req, body, `/licenses ${m[2] ?? ''}`.trim());
    if (ack.status === 200 && ack.text.trim() !== '') {
      const parsed = parseAck(ack.text);
      world.ackReply({ userId: u.id, channel: channel.id }, parsed ?? { text: ack.text });
    }
    return { ok: ack.status === 200 };
  }

  async function action(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const surface = isObject(b.surface) ? b.surface : {};
    const act = isObject(b.action) ? b.action : undefined;
    if (!act || typeof act.action_id !== 'string') throw new BadRequest(400, 'The click named no action_id.');
    const base = {
      type: 'block_actions',
      user: userField(u),
      api_app_id: appId,
      token: 'local-console-verification-token',
      trigger_id: world.newTrigger(u.id),
      team: { id: team.id, domain: team.domain },
      enterprise: null,
      is_enterprise_install: false,
      actions: [{ ...act, action_ts: `${Date.now() / 1000}` }],
    };
    let payload: Json;
    if (surface.type === 'message') {
      // Only a message the person may see: not one of a private channel they are not in, nor someone's ephemeral.
      const msg = world.message(u.id, String(surface.channel), String(surface.ts));
      if (!msg) throw new BadRequest(404, 'That message is gone.');
      const ch = world.channelOf(msg.channel);
      const responseId = world.newResponseContext({ userId: u.id, channel: msg.channel, originalTs: msg.ts });
      payload = {
        ...base,
        container: {
          type: 'message',
          message_ts: msg.ts,
          channel_id: msg.channel,
          is_ephemeral: msg.ephemeralFor !== undefined,
        },
        channel: { id: msg.channel, name: ch?.kind === 'dm' ? 'directmessage' : ch?.name },
        ...(msg.ephemeralFor === undefined
          ? { message: { type: 'message', ts: msg.ts, text: msg.text, blocks: msg.blocks ?? [], bot_id: 'B0LICBOT01' } }
          : {}),
        state: { values: isObject(b.values) ? b.values : {} },
        response_url: local?.responseUrl(responseId) ?? '',
      };
    } else if (surface.type === 'view') {
      const v = world.view(String(surface.viewId));
      if (!v || v.userId !== u.id) throw new BadRequest(404, 'That view is closed.');
      payload = {
        ...base,
        container: { type: 'view', view_id: v.id },
        view: fullView(v, b.values),
      };
    } else {
      throw new BadRequest(400, 'The click came from neither a message nor a view.');
    }
    const ack = await deliver(req, interaction(payload), `Click on ${act.action_id}`);
    return { ok: ack.status === 200 };
  }

  /** An external_select asks for its options: a signed block_suggestion; the ack body is the answer. */
  async function suggest(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const surface = isObject(b.surface) ? b.surface : {};
    const request = isObject(b.request) ? b.request : undefined;
    if (!request || typeof request.action_id !== 'string') throw new BadRequest(400, 'The menu named no action_id.');
    const v = surface.type === 'view' ? world.view(String(surface.viewId)) : undefined;
    if (!v || v.userId !== u.id) throw new BadRequest(404, 'That view is closed.');
    const payload = {
      type: 'block_suggestion',
      user: userField(u),
      api_app_id: appId,
      token: 'local-console-verification-token',
      team: { id: team.id, domain: team.domain },
      enterprise: null,
      is_enterprise_install: false,
      container: { type: 'view', view_id: v.id },
      action_id: request.action_id,
      block_id: String(request.block_id ?? ''),
      value: String(request.value ?? ''),
      view: fullView(v, b.values),
    };
    const ack = await deliver(req, interaction(payload), `Options for ${request.action_id}`);
    const answer = ack.status === 200 ? parseAck(ack.text) : undefined;
    const options = answer && Array.isArray(answer.options) ? answer.options : undefined;
    if (ack.status === 200 && !options) {
      world.notice('error', `Options for ${request.action_id}: the answer has no options list; Slack would show none.`);
    }
    return { ok: options !== undefined, options: options ?? [] };
  }

  async function submit(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const v = world.topView(u.id);
    if (!v || v.id !== b.viewId) throw new BadRequest(409, 'This form is no longer open.');
    const payload = {
      type: 'view_submission',
      team: { id: team.id, domain: team.domain },
      user: userField(u),
      api_app_id: appId,
      token: 'local-console-verification-token',
      trigger_id: world.newTrigger(u.id),
      view: fullView(v, b.values),
      response_urls: [],
      is_enterprise_install: false,
      enterprise: null,
    };
    const title = String((v.view.title as Json | undefined)?.text ?? 'form');
    const ack = await deliver(req, interaction(payload), `Submitting “${title}”`);
    if (ack.status !== 200) return { ok: false, error: 'We had some trouble connecting. Try again?' };
    const answer = ack.text.trim() === '' ? {} : parseAck(ack.text);
    if (!answer) {
      world.notice('error', `Submitting “${title}”: the acknowledgement is not JSON; Slack would show an error.`);
      return { ok: false, error: 'We had some trouble connecting. Try again?' };
    }
    switch (answer.response_action) {
      case undefined:
        world.closeViews(u.id, false);
        break;
      case 'errors':
        world.setErrors(v.id, isObject(answer.errors) ? (answer.errors as Record<string, string>) : {});
        break;
      case 'update':
        if (!world.replaceTop(u.id, answer.view as Json)) return { ok: false, error: 'The form could not update.' };
        break;
      case 'push':
        if (!world.pushView(u.id, answer.view as Json)) return { ok: false, error: 'The next form could not open.' };
        break;
      case 'clear':
        world.closeViews(u.id, true);
        break;
      default:
        world.notice('error', `Slack would reject response_action ${String(answer.response_action)}.`);
        return { ok: false, error: 'We had some trouble connecting. Try again?' };
    }
    return { ok: true };
  }

  async function close(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const v = world.topView(u.id);
    if (!v || v.id !== b.viewId) return { ok: true };
    const closed = world.closeViews(u.id, b.all === true);
    for (const c of closed) {
      if (c.view.notify_on_close !== true) continue;
      const payload = {
        type: 'view_closed',
        team: { id: team.id, domain: team.domain },
        user: userField(u),
        api_app_id: appId,
        token: 'local-console-verification-token',
        view: fullView(c, b.values),
        is_cleared: b.all === true,
        is_enterprise_install: false,
      };
      await deliver(req, interaction(payload), 'Closing the form');
    }
    return { ok: true };
  }

  let alertCheck: ((userId: string) => Promise<string>) | undefined;

  /** Not Slack: a console control that runs the daily alert check now instead of at ALERT_TIME. */
  async function alertsNow(_req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    if (!alertCheck) return { ok: false, error: 'Alerts are off: set ALERT_CHANNEL or AUDIT_CHANNEL.' };
    // The control sits in the alerts channel: only the people in it have it.
    const alerts = options.channels.find((c) => c.alerts);
    if (alerts && !world.inChannel(u.id, alerts.id)) throw notInChannel(alerts);
    try {
      const result = await alertCheck(u.id);
      if (result === 'busy') return { ok: false, error: 'The alert check is already running.' };
      return { ok: true };
    } catch (error) {
      options.logger.warn('console: the alert check failed', { error });
      return { ok: false, error: 'The alert check failed; see the app log.' };
    }
  }

  let digestPost: (() => Promise<DigestPostNow>) | undefined;

  /** Not Slack: a console control that posts this week's digest now instead of at DIGEST_DAY DIGEST_TIME. */
  async function digestNow(_req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const there = options.channels.find((c) => c.digest);
    if (!digestPost || !there)
      return { ok: false, error: 'The weekly digest post is off: set DIGEST_CHANNEL or ALERT_CHANNEL.' };
    // The control sits in the digest's channel: only the people in it have it.
    if (!world.inChannel(u.id, there.id)) throw notInChannel(there);
    try {
      const result = await digestPost();
      if (result === 'claimed')
        return {
          ok: false,
          error: `This week's digest was already posted in #${there.name} (one a week: the schedule's, or one posted with this button); the next week's comes on its day.`,
        };
      if (result === 'off')
        return { ok: false, error: 'The weekly digest post is off: set DIGEST_CHANNEL or ALERT_CHANNEL.' };
      return { ok: true };
    } catch (error) {
      options.logger.warn('console: the digest post failed', { error });
      return { ok: false, error: 'The digest could not be prepared; see the app log.' };
    }
  }

  /** A global shortcut, chosen in the page's shortcut menu: the signed `shortcut` payload Slack sends. */
  async function shortcut(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const chosen = (options.shortcuts ?? []).find((x) => x.callbackId === b.callbackId);
    if (!chosen) throw new BadRequest(400, 'That shortcut is not one of the app’s (manifest.yml).');
    const payload = {
      type: 'shortcut',
      token: 'local-console-verification-token',
      action_ts: `${Date.now() / 1000}`,
      team: { id: team.id, domain: team.domain },
      user: { id: u.id, username: u.name, team_id: team.id },
      api_app_id: appId,
      is_enterprise_install: false,
      enterprise: null,
      callback_id: chosen.callbackId,
      trigger_id: world.newTrigger(u.id),
    };
    const ack = await deliver(req, interaction(payload), `The shortcut “${chosen.name}”`);
    return { ok: ack.status === 200 };
  }

  async function home(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const dm = world.channelOf(u.id);
    const current = world.homeOf(u.id);
    const event = {
      token: 'local-console-verification-token',
      team_id: team.id,
      api_app_id: appId,
      event: {
        type: 'app_home_opened',
        user: u.id,
        channel: dm?.id,
        tab: 'home',
        event_ts: `${Date.now() / 1000}`,
        ...(current ? { view: fullView(current, {}) } : {}),
      },
      type: 'event_callback',
      event_id: `Ev${Date.now().toString(36).toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: team.id, user_id: options.botUserId, is_bot: true, is_enterprise_install: false }],
    };
    const ack = await deliver(req, JSON.stringify(event), 'Opening App Home', 'application/json');
    return { ok: ack.status === 200 };
  }

  /**
   * Not a person's click in Slack: a workspace admin deactivates (or reactivates) the member chosen in
   * the switcher. The local workspace records it, and the app gets the signed `user_change` event Slack
   * sends then (docs/leavers-and-offers.md#leavers).
   */
  async function member(req: IncomingMessage, b: Json): Promise<Json> {
    const u = userOf(b.user);
    const deleted = b.deleted === true;
    u.deleted = deleted;
    local?.setUser(u);
    const event = {
      token: 'local-console-verification-token',
      team_id: team.id,
      api_app_id: appId,
      event: {
        type: 'user_change',
        user: {
          id: u.id,
          team_id: team.id,
          name: u.name,
          real_name: u.realName ?? u.name,
          deleted,
          is_bot: false,
          profile: { real_name: u.realName ?? u.name, display_name: u.name, ...(u.email ? { email: u.email } : {}) },
        },
        cache_ts: Math.floor(Date.now() / 1000),
        event_ts: `${Date.now() / 1000}`,
      },
      type: 'event_callback',
      event_id: `Ev${Date.now().toString(36).toUpperCase()}`,
      event_time: Math.floor(Date.now() / 1000),
      authorizations: [{ team_id: team.id, user_id: options.botUserId, is_bot: true, is_enterprise_install: false }],
    };
    const who = u.realName ?? u.name;
    world.notice(
      'warning',
      `${who} was ${deleted ? 'deactivated' : 'reactivated'} in Slack: the app got the user_change event.`,
    );
    const ack = await deliver(
      req,
      JSON.stringify(event),
      `${deleted ? 'Deactivating' : 'Reactivating'} ${who}`,
      'application/json',
    );
    return { ok: ack.status === 200 };
  }

  function events(req: IncomingMessage, res: ServerResponse): void {
    const me = new URL(req.url ?? '/', 'http://localhost').searchParams.get('user') ?? '';
    userOf(me);
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    let timer: NodeJS.Timeout | undefined;
    const push = () => {
      timer = undefined;
      res.write(`event: state\ndata: ${JSON.stringify(world.snapshot(me))}\n\n`);
    };
    const schedule = () => {
      timer ??= setTimeout(push, 20);
    };
    const heartbeat = setInterval(() => res.write(': still here\n\n'), 20_000);
    heartbeat.unref();
    const stop = world.onChange(schedule);
    streams.add(res);
    push();
    res.on('close', () => {
      stop();
      clearInterval(heartbeat);
      if (timer) clearTimeout(timer);
      streams.delete(res);
    });
  }

  /** A file, for a person who may see the message that carries it (a DM is its person's only). */
  function file(req: IncomingMessage & { params?: Record<string, string> }, res: ServerResponse): void {
    const id = req.params?.id ?? '';
    const me = userOf(new URL(req.url ?? '/', 'http://localhost').searchParams.get('user'));
    const up = world.fileMessage(me.id, id) ? local?.uploads.find((u) => u.fileId === id) : undefined;
    if (!up) {
      sendJson(res, 404, { ok: false, error: 'No such file in the local console.' });
      return;
    }
    const name = up.filename.replace(/[^\w.-]+/g, '_') || 'file';
    res.writeHead(200, {
      'content-type': name.endsWith('.csv') ? 'text/csv; charset=utf-8' : 'application/octet-stream',
      'content-disposition': `attachment; filename="${name}"`,
      'cache-control': 'no-store',
    });
    res.end(up.content);
  }

  const serveFile = (path: string, type: string) => (req: IncomingMessage, res: ServerResponse) => {
    try {
      checkOrigin(req);
      const body = readFileSync(path);
      res.writeHead(200, { 'content-type': type, 'cache-control': 'no-cache' });
      res.end(body);
    } catch (error) {
      fail(res, error);
    }
  };

  function fail(res: ServerResponse, error: unknown): void {
    if (error instanceof BadRequest) {
      sendJson(res, error.status, { ok: false, error: error.message });
      return;
    }
    options.logger.error('console request failed', { error });
    if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'The console failed; see the app log.' });
    else res.end();
  }

  const post =
    (handler: (req: IncomingMessage, body: Json) => Promise<Json>) =>
    (req: IncomingMessage, res: ServerResponse): void => {
      void (async () => {
        try {
          checkOrigin(req);
          sendJson(res, 200, await handler(req, await readJson(req)));
        } catch (error) {
          fail(res, error);
        }
      })();
    };
  const get =
    (handler: (req: IncomingMessage, res: ServerResponse) => void) => (req: IncomingMessage, res: ServerResponse) => {
      try {
        checkOrigin(req);
        handler(req, res);
      } catch (error) {
        fail(res, error);
      }
    };

  const routes: CustomRoute[] = [
    { path: '/', method: ['GET'], handler: serveFile(join(dir, 'index.html'), PUBLIC_FILES['index.html'] as string) },
    ...Object.entries(PUBLIC_FILES).map(([name, type]) => ({
      path: `/console/${name}`,
      method: ['GET'],
      handler: serveFile(join(dir, name), type),
    })),
    ...Object.entries(vendor).map(([path, file]) => ({
      path,
      method: ['GET'],
      handler: serveFile(file, 'text/javascript; charset=utf-8'),
    })),
    { path: '/console/events', method: ['GET'], handler: get(events) },
    {
      path: '/console/people',
      method: ['GET'],
      handler: get((_req, res) =>
        sendJson(
          res,
          200,
          world.snapshot('').users.filter((u) => u.role !== ''),
        ),
      ),
    },
    {
      path: '/console/usage',
      method: ['GET'],
      handler: get((_req, res) => sendJson(res, 200, { hint: options.usageHint ?? '' })),
    },
    {
      path: '/console/shortcuts',
      method: ['GET'],
      handler: get((_req, res) => sendJson(res, 200, options.shortcuts ?? [])),
    },
    { path: '/console/shortcut', method: ['POST'], handler: post(shortcut) },
    { path: '/console/digest-now', method: ['POST'], handler: post(digestNow) },
    { path: '/console/files/:id', method: ['GET'], handler: get(file) },
    { path: '/console/command', method: ['POST'], handler: post(command) },
    { path: '/console/action', method: ['POST'], handler: post(action) },
    { path: '/console/options', method: ['POST'], handler: post(suggest) },
    { path: '/console/submit', method: ['POST'], handler: post(submit) },
    { path: '/console/close', method: ['POST'], handler: post(close) },
    { path: '/console/home', method: ['POST'], handler: post(home) },
    { path: '/console/alerts-now', method: ['POST'], handler: post(alertsNow) },
    { path: '/console/member', method: ['POST'], handler: post(member) },
    { path: '/console/slackbot', method: ['POST'], handler: post(slackbot) },
  ];

  return {
    world,
    routes,
    intercept: world.intercept,
    onResponse: world.onResponse,
    attach(l) {
      local = l;
    },
    setAlertCheck(run) {
      alertCheck = run;
    },
    setDigestPost(run) {
      digestPost = run;
    },
    close() {
      for (const s of streams) s.end();
      streams.clear();
    },
  };
}

/** What Slack would not let a person do in a private channel they are not in: it is not theirs to see. */
function notInChannel(channel: ConsoleChannel): BadRequest {
  return new BadRequest(
    403,
    `#${channel.name} is a private channel you are not in: switch "You are" to someone who is.`,
  );
}

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseAck(text: string): Json | undefined {
  try {
    const parsed = JSON.parse(text) as unknown;
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
