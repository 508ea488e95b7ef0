/**
 * A small stand-in for Slack's Web API and response_urls on loopback, for the local demo (npm start
 * without Slack settings) and the end-to-end tests. It answers the methods License Desk calls with
 * Slack's shapes (HTTP 200 + ok:false for API errors, platform.md section 4.2), records every call
 * with its form body decoded, and records response_url posts under /response/<id>.
 *
 * `GET /calls?after=<n>&waitMs=<ms>` reads the record back (calls n+1 onwards, tokens left out), waiting up
 * to waitMs for one to arrive: how `npm run try` shows the modals the app opened.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalSlackUser {
  id: string;
  name: string;
  realName?: string;
  email?: string;
  isAdmin?: boolean;
  isOwner?: boolean;
  /** A guest (single- or multi-channel). */
  isRestricted?: boolean;
  isBot?: boolean;
  deleted?: boolean;
}

export interface SlackCall {
  method: string;
  /** The form body, with `view`, `blocks`, `attachments` and `metadata` JSON-decoded. */
  args: Record<string, unknown>;
  token: string | undefined;
  at: number;
}

/** A file sent through files.uploadV2: the bytes posted to the upload URL, and where it was shared. */
export interface SlackUpload {
  fileId: string;
  filename: string;
  /** The uploaded bytes as UTF-8 text. */
  content: string;
  /** Set by files.completeUploadExternal. */
  channelId?: string;
  initialComment?: string;
  at: number;
}

export interface ResponseUrlPost {
  id: string;
  body: Record<string, unknown>;
  at: number;
}

/** A canned answer: a body (sent with HTTP 200), or a function of the call; `status` 429 rate-limits. */
export type SlackAnswer =
  | Record<string, unknown>
  | ((call: SlackCall) => Record<string, unknown>)
  | { status: 429; retryAfterSec: number };

export interface LocalSlackOptions {
  host?: string;
  port?: number;
  users?: LocalSlackUser[];
  usergroups?: Record<string, string[]>;
  /** The user groups' names (usergroups.list); default each group's id. */
  usergroupNames?: Record<string, string>;
  /** When set, calls with another bearer token get invalid_auth. */
  botToken?: string;
  /** Slack allows 5 posts per response_url (platform.md section 3); a sixth gets 404. */
  responseUrlMaxUses?: number;
  /**
   * Lets a richer double (the local console) answer Web API calls with state of its own: called for
   * every call that no `answer` override took, with `builtIn` giving the stand-in's own answer.
   */
  intercept?: (call: SlackCall, builtIn: () => Record<string, unknown>) => Record<string, unknown>;
  /** Told of every response_url post accepted, after it is recorded. */
  onResponse?: (post: ResponseUrlPost) => void;
}

export interface LocalSlack {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** For clientOptions.slackApiUrl / SLACK_API_URL: `${url}/api/`. */
  apiUrl: string;
  readonly calls: readonly SlackCall[];
  readonly responses: readonly ResponseUrlPost[];
  /** Files uploaded (files.uploadV2), in order. */
  readonly uploads: readonly SlackUpload[];
  responseUrl(id: string): string;
  setUser(user: LocalSlackUser): void;
  setUsergroup(id: string, members: string[]): void;
  /** Replace the answer of a method for the next `times` calls (default: until cleared with undefined). */
  answer(method: string, answer: SlackAnswer | undefined, times?: number): void;
  waitForCall(method: string, predicate?: (call: SlackCall) => boolean, timeoutMs?: number): Promise<SlackCall>;
  waitForResponse(
    id: string,
    predicate?: (post: ResponseUrlPost) => boolean,
    timeoutMs?: number,
  ): Promise<ResponseUrlPost>;
  clear(): void;
  close(): Promise<void>;
}

export const LOCAL_TEAM = { id: 'T0LOCAL001', domain: 'license-desk-local', name: 'License Desk (local)' } as const;
export const LOCAL_BOT = { userId: 'U0LICBOT01', botId: 'B0LICBOT01', appId: 'A0LICBOT01' } as const;
const JSON_FIELDS = ['view', 'blocks', 'attachments', 'metadata', 'outputs'];

function userObject(u: LocalSlackUser): Record<string, unknown> {
  return {
    id: u.id,
    team_id: LOCAL_TEAM.id,
    name: u.name,
    real_name: u.realName ?? u.name,
    deleted: u.deleted ?? false,
    tz: 'Europe/Berlin',
    profile: { real_name: u.realName ?? u.name, display_name: u.name, ...(u.email ? { email: u.email } : {}) },
    is_admin: u.isAdmin ?? false,
    is_owner: u.isOwner ?? false,
    is_primary_owner: false,
    is_restricted: u.isRestricted ?? false,
    is_ultra_restricted: false,
    is_bot: u.isBot ?? false,
  };
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** @slack/web-api posts the bytes as multipart/form-data (a Buffer argument), or raw. */
async function uploadedText(raw: Buffer, contentType: string | undefined): Promise<string> {
  if (!contentType?.startsWith('multipart/form-data')) return raw.toString('utf8');
  const form = await new Response(raw, { headers: { 'content-type': contentType } }).formData();
  for (const value of form.values()) if (typeof value !== 'string') return value.text();
  return '';
}

function decodeArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (contentType?.startsWith('application/json')) return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  const args: Record<string, unknown> = Object.fromEntries(new URLSearchParams(raw));
  for (const field of JSON_FIELDS) {
    const value = args[field];
    if (typeof value === 'string') {
      try {
        args[field] = JSON.parse(value);
      } catch {
        // Left as sent: a test can assert on the malformed string.
      }
    }
  }
  return args;
}

export async function startLocalSlack(options: LocalSlackOptions = {}): Promise<LocalSlack> {
  const users = new Map((options.users ?? []).map((u) => [u.id, u]));
  const usergroups = new Map(Object.entries(options.usergroups ?? {}));
  const overrides = new Map<string, { answer: SlackAnswer; times: number }>();
  const calls: SlackCall[] = [];
  /** What each call was answered (kept apart so that SlackCall stays as tests know it). */
  const results = new WeakMap<SlackCall, unknown>();
  const responses: ResponseUrlPost[] = [];
  const uploads: SlackUpload[] = [];
  // Known once listening; upload URLs returned by files.getUploadURLExternal are absolute (platform.md 4.2).
  let baseUrl = '';
  const waiters = new Set<() => void>();
  const maxUses = options.responseUrlMaxUses ?? 5;
  let seq = 0;
  const notify = () => {
    for (const w of waiters) w();
  };
  const byEmail = (email: unknown) => [...users.values()].find((u) => u.email && u.email === email);

  const builtIn = (call: SlackCall): Record<string, unknown> => {
    const a = call.args;
    const ts = `${Math.floor(call.at / 1000)}.${String(++seq).padStart(6, '0')}`;
    const view = (id: string) => ({ ok: true, view: { id, team_id: LOCAL_TEAM.id, ...(a.view as object), hash: ts } });
    switch (call.method) {
      case 'auth.test':
        return {
          ok: true,
          url: `https://${LOCAL_TEAM.domain}.slack.com/`,
          team: LOCAL_TEAM.name,
          user: 'licensedesk',
          team_id: LOCAL_TEAM.id,
          user_id: LOCAL_BOT.userId,
          bot_id: LOCAL_BOT.botId,
          is_enterprise_install: false,
        };
      case 'users.info': {
        const u = users.get(String(a.user));
        return u ? { ok: true, user: userObject(u) } : { ok: false, error: 'user_not_found' };
      }
      case 'users.lookupByEmail': {
        const u = byEmail(a.email);
        return u ? { ok: true, user: userObject(u) } : { ok: false, error: 'users_not_found' };
      }
      case 'usergroups.users.list': {
        const members = usergroups.get(String(a.usergroup));
        return members ? { ok: true, users: members } : { ok: false, error: 'no_such_subteam' };
      }
      case 'usergroups.list':
        return {
          ok: true,
          usergroups: [...usergroups.keys()].map((id) => {
            const name = options.usergroupNames?.[id] ?? id;
            return {
              id,
              team_id: LOCAL_TEAM.id,
              name,
              handle: name.toLowerCase().replace(/\s+/g, '-'),
              date_delete: 0,
            };
          }),
        };
      case 'chat.postMessage':
        return {
          ok: true,
          channel: a.channel,
          ts,
          message: { text: a.text, blocks: a.blocks, ts, bot_id: LOCAL_BOT.botId },
        };
      case 'chat.postEphemeral':
        return { ok: true, message_ts: ts };
      case 'chat.update':
        return { ok: true, channel: a.channel, ts: a.ts, text: a.text };
      case 'views.open':
      case 'views.push':
        return view(`V${String(seq).padStart(9, '0')}`);
      case 'views.update':
        return view(String(a.view_id ?? a.external_id ?? 'V000000000'));
      case 'views.publish':
        return view(`VHOME${String(a.user_id ?? '')}`);
      case 'functions.completeSuccess':
      case 'functions.completeError':
        return a.function_execution_id ? { ok: true } : { ok: false, error: 'function_execution_not_found' };
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(a.users ?? '').slice(1)}` } };
      case 'files.getUploadURLExternal': {
        const fileId = `F${String(++seq).padStart(9, '0')}`;
        uploads.push({ fileId, filename: String(a.filename ?? ''), content: '', at: call.at });
        return { ok: true, upload_url: `${baseUrl}/upload/${fileId}`, file_id: fileId };
      }
      case 'files.completeUploadExternal': {
        const files = (typeof a.files === 'string' ? JSON.parse(a.files) : a.files) as { id: string; title?: string }[];
        for (const f of files) {
          const upload = uploads.find((u) => u.fileId === f.id);
          if (!upload) return { ok: false, error: 'file_not_found' };
          if (typeof a.channel_id === 'string') upload.channelId = a.channel_id;
          if (typeof a.initial_comment === 'string') upload.initialComment = a.initial_comment;
        }
        return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title ?? '' })) };
      }
      default:
        return { ok: false, error: 'unknown_method' };
    }
  };

  /** The record from index `after` on; with waitMs, holds the answer until one more call arrives. */
  const sendCalls = async (url: string, send: (status: number, body: unknown) => void) => {
    const query = new URL(url, 'http://local').searchParams;
    const after = Math.max(0, Number(query.get('after')) || 0);
    const waitMs = Math.min(Math.max(0, Number(query.get('waitMs')) || 0), 30_000);
    if (calls.length <= after && waitMs > 0) {
      await new Promise<void>((resolve) => {
        const done = () => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        const check = () => {
          if (calls.length > after) done();
        };
        const timer = setTimeout(done, waitMs);
        timer.unref();
        waiters.add(check);
      });
    }
    const shown = calls.slice(after).map((call) => {
      const { token: _token, ...rest } = call.args;
      return { method: call.method, args: rest, at: call.at, result: results.get(call) };
    });
    send(200, { ok: true, next: calls.length, calls: shown });
  };

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const bytes = await readBody(req);
    const raw = bytes.toString('utf8');
    const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    };
    try {
      if (path === '/calls' && req.method === 'GET') return void (await sendCalls(req.url ?? '', send));
      const upload = /^\/upload\/([^/]+)$/.exec(path);
      if (upload && req.method === 'POST') {
        const file = uploads.find((u) => u.fileId === upload[1]);
        if (!file) return send(404, { ok: false, error: 'file_not_found' });
        file.content = await uploadedText(bytes, req.headers['content-type']);
        notify();
        return send(200, { ok: true });
      }
      const response = /^\/response\/([^/]+)$/.exec(path);
      if (response && req.method === 'POST') {
        const id = decodeURIComponent(response[1] ?? '');
        if (responses.filter((r) => r.id === id).length >= maxUses) return send(404, { ok: false, error: 'used_up' });
        const post = { id, body: JSON.parse(raw || '{}') as Record<string, unknown>, at: Date.now() };
        responses.push(post);
        notify();
        options.onResponse?.(post);
        return send(200, { ok: true });
      }
      const api = /^\/api\/([\w.]+)$/.exec(path);
      if (!api || req.method !== 'POST') return send(404, { ok: false, error: 'not_found' });
      const auth = req.headers.authorization;
      const args = decodeArgs(raw, req.headers['content-type']);
      const token = auth?.startsWith('Bearer ')
        ? auth.slice(7)
        : typeof args.token === 'string'
          ? args.token
          : undefined;
      const call: SlackCall = { method: api[1] ?? '', args, token, at: Date.now() };
      calls.push(call);
      notify();
      if (options.botToken && token !== options.botToken) return send(200, { ok: false, error: 'invalid_auth' });
      const override = overrides.get(call.method);
      if (override) {
        if (--override.times <= 0) overrides.delete(call.method);
        const a = override.answer;
        if ('status' in a && a.status === 429) {
          return send(429, { ok: false, error: 'ratelimited' }, { 'retry-after': String(a.retryAfterSec) });
        }
        const answered = typeof a === 'function' ? a(call) : a;
        results.set(call, answered);
        return send(200, answered);
      }
      const answered = options.intercept ? options.intercept(call, () => builtIn(call)) : builtIn(call);
      results.set(call, answered);
      return send(200, answered);
    } catch (error) {
      send(200, { ok: false, error: 'invalid_arguments', detail: String(error) });
    }
  });
  server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
  baseUrl = url;

  function waitFor<T>(find: () => T | undefined, what: string, timeoutMs: number): Promise<T> {
    const found = find();
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve, reject) => {
      const check = () => {
        const hit = find();
        if (hit === undefined) return;
        cleanup();
        resolve(hit);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(`local Slack: no ${what} within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = () => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
    });
  }

  return {
    url,
    apiUrl: `${url}/api/`,
    calls,
    responses,
    uploads,
    responseUrl: (id) => `${url}/response/${encodeURIComponent(id)}`,
    setUser: (u) => void users.set(u.id, u),
    setUsergroup: (id, members) => void usergroups.set(id, members),
    answer(method, answer, times = Number.POSITIVE_INFINITY) {
      if (answer === undefined) overrides.delete(method);
      else overrides.set(method, { answer, times });
    },
    waitForCall: (method, predicate = () => true, timeoutMs = 5000) =>
      waitFor(() => calls.find((c) => c.method === method && predicate(c)), `${method} call`, timeoutMs),
    waitForResponse: (id, predicate = () => true, timeoutMs = 5000) =>
      waitFor(() => responses.find((r) => r.id === id && predicate(r)), `response_url post to ${id}`, timeoutMs),
    clear() {
      calls.length = 0;
      responses.length = 0;
      uploads.length = 0;
      overrides.clear();
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
