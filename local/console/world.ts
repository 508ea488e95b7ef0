/**
 * The local console's Slack: the state a person sees in the browser (channels, messages, ephemeral
 * replies, the modal stack, App Home, files) and the Web API behaviour that changes it. It sits in
 * front of the local Slack double (local/slack/local-slack.ts, through its `intercept` and `onResponse`
 * hooks) and refuses what Slack would refuse: broken Block Kit limits, unknown block types, trigger
 * ids that are unknown, used or older than 3 s, views.update with a stale hash, a fourth pushed view.
 * Every refusal also becomes a visible notice. docs/console.md describes the rules it follows.
 */
import { checkBlockKitLimits, checkModalLimits } from '../../src/kernel/blocks/limits.js';
import type { LocalSlackUser, ResponseUrlPost, SlackCall, SlackUpload } from '../slack/local-slack.js';

type Json = Record<string, unknown>;

export interface ConsoleChannel {
  id: string;
  name: string;
  kind: 'channel' | 'dm';
  /** For a DM: whose conversation with the bot it is. */
  userId?: string;
  /** What the page says while the channel is empty. */
  purpose?: string;
  /** The daily alerts are posted here (the page offers to run the check now). */
  alerts?: boolean;
  /** The weekly digest is posted here (the page offers to post it now). */
  digest?: boolean;
  /**
   * A private channel: only these people are in it. Nobody else sees it, its messages or its files, and
   * the console refuses them what happens there. Unset: a public channel, open to everyone.
   */
  members?: string[];
}

export interface ConsoleFile {
  id: string;
  name: string;
  size: number;
  url: string;
}

export interface ConsoleMessage {
  ts: string;
  channel: string;
  /** The author: the bot's user id, or the person who typed it. */
  user: string;
  text: string;
  blocks?: unknown[];
  /** Set for an ephemeral message: only this user sees it. */
  ephemeralFor?: string;
  threadTs?: string;
  file?: ConsoleFile;
  edited?: boolean;
  /** What Slack would warn about (e.g. no fallback text); shown beside the message. */
  warnings?: string[];
}

export interface ConsoleView {
  id: string;
  userId: string;
  kind: 'modal' | 'home';
  view: Json;
  hash: string;
  externalId?: string;
  /** Inline errors from response_action errors, by block_id. */
  errors?: Record<string, string>;
}

export interface ConsoleNotice {
  seq: number;
  at: number;
  level: 'error' | 'warning';
  text: string;
  details?: string[];
}

/** Where a response_url post lands: a command's reply, or the message whose button was clicked. */
export interface ResponseContext {
  userId: string;
  channel: string;
  /** The message that replace_original / delete_original act on; a command's first reply becomes it. */
  originalTs?: string;
}

export interface Snapshot {
  me: string;
  botUserId: string;
  users: { id: string; name: string; realName: string; role: string; deleted: boolean }[];
  channels: ConsoleChannel[];
  messages: ConsoleMessage[];
  modals: ConsoleView[];
  home: ConsoleView | null;
  notices: ConsoleNotice[];
}

export interface WorldOptions {
  users: LocalSlackUser[];
  /** What the switcher says each user is (by id); the app decides for real. */
  roleLabels: Record<string, string>;
  channels: ConsoleChannel[];
  botUserId: string;
  /** Uploaded bytes, by file id (the Slack double keeps them). */
  upload: (fileId: string) => SlackUpload | undefined;
  now?: () => number;
}

/** Slack block types the app's own limit checker does not judge; they are not "unknown" to Slack. */
const OTHER_SLACK_BLOCKS = /unexpected block type (rich_text|image|video|file|markdown|table)$/;
const TRIGGER_TTL_MS = 3000;
const MAX_STACK = 3;
const MAX_MESSAGES = 400;
const MAX_NOTICES = 40;

/** What the page is sent of each channel: its latest messages (every change resends the state). */
const MESSAGES_PER_CHANNEL = 60;

function latestPerChannel(list: ConsoleMessage[]): ConsoleMessage[] {
  const seen = new Map<string, number>();
  const keep: ConsoleMessage[] = [];
  for (let i = list.length - 1; i >= 0; i--) {
    const m = list[i] as ConsoleMessage;
    const n = seen.get(m.channel) ?? 0;
    if (n >= MESSAGES_PER_CHANNEL) continue;
    seen.set(m.channel, n + 1);
    keep.push(m);
  }
  return keep.reverse();
}

export type World = ReturnType<typeof createWorld>;

export function createWorld(options: WorldOptions) {
  const now = options.now ?? Date.now;
  const users = new Map(options.users.map((u) => [u.id, u]));
  const channels = new Map(options.channels.map((c) => [c.id, c]));
  const messages: ConsoleMessage[] = [];
  const views = new Map<string, ConsoleView>();
  const stacks = new Map<string, string[]>();
  const homes = new Map<string, string>();
  const triggers = new Map<string, { at: number; userId: string; used: boolean }>();
  const contexts = new Map<string, ResponseContext>();
  const notices: ConsoleNotice[] = [];
  const listeners = new Set<() => void>();
  let seq = 0;

  const changed = () => {
    for (const l of listeners) l();
  };
  const nextTs = () => `${Math.floor(now() / 1000)}.${String(++seq).padStart(6, '0')}`;

  function notice(level: ConsoleNotice['level'], text: string, details?: string[]): void {
    notices.push({ seq: ++seq, at: now(), level, text, ...(details?.length ? { details } : {}) });
    if (notices.length > MAX_NOTICES) notices.shift();
    changed();
  }

  function dmOf(userId: string): ConsoleChannel | undefined {
    const user = users.get(userId);
    if (!user) return undefined;
    const id = `D${userId.slice(1)}`;
    let ch = channels.get(id);
    if (!ch) {
      ch = { id, name: 'License Desk', kind: 'dm', userId };
      channels.set(id, ch);
    }
    return ch;
  }

  /** A channel id as the app gives it: C…/G…/D…, or a user id (Slack then posts in the app's DM). */
  function channelOf(id: unknown): ConsoleChannel | undefined {
    if (typeof id !== 'string') return undefined;
    if (/^[UW]/.test(id)) return dmOf(id);
    if (id.startsWith('D')) return channels.get(id) ?? dmOf(`U${id.slice(1)}`);
    // A channel the console does not list (npm run try types in one of its own): it exists from now on.
    if (!channels.has(id) && /^[CG][A-Z0-9]{2,}$/.test(id)) {
      channels.set(id, { id, name: id.toLowerCase(), kind: 'channel' });
    }
    return channels.get(id);
  }

  /** Whether a person is in a channel: a public one, a private one that lists them, or their own DM. */
  function inChannel(userId: string, channel: ConsoleChannel | undefined): boolean {
    if (!channel) return false;
    if (channel.kind === 'dm') return channel.userId === userId;
    return channel.members === undefined || channel.members.includes(userId);
  }

  /** What a person may see of a message: it is in their channel, and if ephemeral, it is theirs. */
  function seesMessage(userId: string, m: ConsoleMessage): boolean {
    return (m.ephemeralFor === undefined || m.ephemeralFor === userId) && inChannel(userId, channels.get(m.channel));
  }

  function addMessage(m: ConsoleMessage): ConsoleMessage {
    messages.push(m);
    if (messages.length > MAX_MESSAGES) messages.splice(0, messages.length - MAX_MESSAGES);
    changed();
    return m;
  }

  /** Limit problems split into what Slack refuses and what it only warns about. */
  function judge(payload: unknown, surface: 'message' | 'view' | 'modal'): { refused: string[]; warnings: string[] } {
    const all =
      surface === 'modal'
        ? [...checkModalLimits(payload)]
        : checkBlockKitLimits(payload, surface === 'view' ? 'view' : 'message');
    const relevant = [...new Set(all)].filter((p) => !OTHER_SLACK_BLOCKS.test(p));
    return {
      refused: relevant.filter((p) => !p.startsWith('text: no text fallback')),
      warnings: relevant.filter((p) => p.startsWith('text: no text fallback')),
    };
  }

  function refuse(method: string, error: string, why: string, details?: string[]): Json {
    notice('error', `Slack would reject ${method}: ${error}. ${why}`, details);
    return { ok: false, error, ...(details?.length ? { response_metadata: { messages: details } } : {}) };
  }

  function messageBody(a: Json): { text: string; blocks?: unknown[] } {
    return {
      text: typeof a.text === 'string' ? a.text : '',
      ...(Array.isArray(a.blocks) ? { blocks: a.blocks } : {}),
    };
  }

  function checkMessage(method: string, a: Json): { refusal?: Json; warnings: string[] } {
    const { refused, warnings } = judge(messageBody(a), 'message');
    if (refused.length > 0) {
      return { refusal: refuse(method, 'invalid_blocks', 'The message breaks Block Kit rules:', refused), warnings };
    }
    if (warnings.length > 0) notice('warning', `${method}: Slack accepts this, but warns`, warnings);
    return { warnings };
  }

  /** views.open / views.push: the trigger must be known, unused and younger than 3 s. */
  function useTrigger(method: string, triggerId: unknown): { userId?: string; refusal?: Json } {
    const t = typeof triggerId === 'string' ? triggers.get(triggerId) : undefined;
    if (!t) {
      // Not from the page (npm run try signs requests of its own): the view opens where nobody sees it.
      notice(
        'warning',
        `${method} with a trigger_id the console did not give out (from npm run try?): Slack would refuse it; nobody sees this view.`,
      );
      return {};
    }
    if (t.used) {
      return { refusal: refuse(method, 'exchanged_trigger_id', 'A trigger_id opens or pushes one view only.') };
    }
    const age = now() - t.at;
    if (age > TRIGGER_TTL_MS) {
      return {
        refusal: refuse(
          method,
          'expired_trigger_id',
          `The trigger_id was ${(age / 1000).toFixed(1)} s old; Slack accepts it for 3 s after the click or command.`,
        ),
      };
    }
    t.used = true;
    return { userId: t.userId };
  }

  function checkView(method: string, view: unknown, kind: 'modal' | 'home'): Json | undefined {
    const { refused } = judge(view, kind === 'modal' ? 'modal' : 'view');
    if (refused.length === 0) return undefined;
    return refuse(method, 'invalid_arguments', 'The view breaks Block Kit rules:', refused);
  }

  function storeView(id: string, userId: string, kind: 'modal' | 'home', view: Json): ConsoleView {
    const stored: ConsoleView = {
      id,
      userId,
      kind,
      view,
      hash: nextTs(),
      ...(typeof view.external_id === 'string' ? { externalId: view.external_id } : {}),
    };
    views.set(id, stored);
    return stored;
  }

  const viewAnswer = (v: ConsoleView): Json => ({
    ok: true,
    view: {
      ...v.view,
      id: v.id,
      team_id: 'T0LOCAL001',
      type: v.kind,
      hash: v.hash,
      state: { values: {} },
      root_view_id: stacks.get(v.userId)?.[0] ?? v.id,
    },
  });

  function findView(a: Json): ConsoleView | undefined {
    if (typeof a.view_id === 'string' && a.view_id !== '') return views.get(a.view_id);
    if (typeof a.external_id === 'string') return [...views.values()].find((v) => v.externalId === a.external_id);
    return undefined;
  }

  /** Web API calls, in front of the double's own answers (which still record every call). */
  function intercept(call: SlackCall, builtIn: () => Json): Json {
    const a = call.args;
    const m = call.method;
    switch (m) {
      case 'chat.postMessage': {
        const ch = channelOf(a.channel);
        if (!ch) return refuse(m, 'channel_not_found', `No channel ${String(a.channel)} in the local workspace.`);
        const check = checkMessage(m, a);
        if (check.refusal) return check.refusal;
        const answer = builtIn();
        const ts = String(answer.ts);
        addMessage({
          ts,
          channel: ch.id,
          user: options.botUserId,
          ...messageBody(a),
          ...(typeof a.thread_ts === 'string' ? { threadTs: a.thread_ts } : {}),
          ...(check.warnings.length ? { warnings: check.warnings } : {}),
        });
        return { ...answer, channel: ch.id };
      }
      case 'chat.postEphemeral': {
        const ch = channelOf(a.channel);
        if (!ch) return refuse(m, 'channel_not_found', `No channel ${String(a.channel)} in the local workspace.`);
        if (typeof a.user !== 'string' || !users.has(a.user)) return refuse(m, 'user_not_in_channel', 'Unknown user.');
        const check = checkMessage(m, a);
        if (check.refusal) return check.refusal;
        const answer = builtIn();
        addMessage({
          ts: String(answer.message_ts),
          channel: ch.id,
          user: options.botUserId,
          ephemeralFor: a.user,
          ...messageBody(a),
          ...(check.warnings.length ? { warnings: check.warnings } : {}),
        });
        return answer;
      }
      case 'chat.update': {
        const ch = channelOf(a.channel);
        const msg = messages.find((x) => x.ts === a.ts && x.channel === ch?.id && !x.ephemeralFor);
        if (!msg) return refuse(m, 'message_not_found', `No message ${String(a.ts)} in ${String(a.channel)}.`);
        const check = checkMessage(m, a);
        if (check.refusal) return check.refusal;
        msg.text = typeof a.text === 'string' ? a.text : msg.text;
        if (Array.isArray(a.blocks)) msg.blocks = a.blocks;
        msg.edited = true;
        changed();
        return { ...builtIn(), channel: msg.channel };
      }
      case 'chat.delete': {
        const ch = channelOf(a.channel);
        const i = messages.findIndex((x) => x.ts === a.ts && x.channel === ch?.id);
        if (i < 0) return refuse(m, 'message_not_found', `No message ${String(a.ts)} in ${String(a.channel)}.`);
        messages.splice(i, 1);
        changed();
        return { ok: true, channel: ch?.id, ts: a.ts };
      }
      case 'views.open':
      case 'views.push': {
        const view = a.view as Json;
        const bad = checkView(m, view, 'modal');
        if (bad) return bad;
        const trigger = useTrigger(m, a.trigger_id);
        if (trigger.refusal) return trigger.refusal;
        if (!trigger.userId) {
          // Kept (so that views.update finds it) but on nobody's screen.
          const id = String(((builtIn().view ?? {}) as Json).id ?? nextTs());
          return viewAnswer(storeView(id, '', 'modal', view));
        }
        const stack = m === 'views.open' ? [] : (stacks.get(trigger.userId) ?? []);
        if (m === 'views.push' && stack.length === 0) {
          return refuse(m, 'not_found', 'views.push needs an open modal to push onto.');
        }
        if (stack.length >= MAX_STACK) {
          return refuse(m, 'push_limit_reached', 'A modal stack holds at most 3 views.');
        }
        const answer = builtIn();
        const id = String((answer.view as Json | undefined)?.id ?? nextTs());
        const stored = storeView(id, trigger.userId, 'modal', view);
        stacks.set(trigger.userId, [...stack, id]);
        changed();
        return viewAnswer(stored);
      }
      case 'views.update': {
        const current = findView(a);
        if (!current) {
          return refuse(
            m,
            'not_found',
            `No open view ${String(a.view_id ?? a.external_id)} (closed, or never opened).`,
          );
        }
        if (typeof a.hash === 'string' && a.hash !== current.hash) {
          return refuse(m, 'hash_conflict', 'The view changed since the app read it (its hash is stale).');
        }
        const view = a.view as Json;
        const bad = checkView(m, view, current.kind);
        if (bad) return bad;
        const updated = storeView(current.id, current.userId, current.kind, view);
        if (!updated.externalId && current.externalId) updated.externalId = current.externalId;
        changed();
        return viewAnswer(updated);
      }
      case 'views.publish': {
        const userId = String(a.user_id ?? '');
        if (!users.has(userId)) return refuse(m, 'user_not_found', `No user ${userId} in the local workspace.`);
        const homeId = homes.get(userId) ?? `VHOME${userId}`;
        const current = views.get(homeId);
        if (current && typeof a.hash === 'string' && a.hash !== current.hash) {
          return refuse(m, 'hash_conflict', 'The Home tab changed since the app read it (its hash is stale).');
        }
        const view = a.view as Json;
        const bad = checkView(m, view, 'home');
        if (bad) return bad;
        homes.set(userId, homeId);
        const stored = storeView(homeId, userId, 'home', view);
        changed();
        return viewAnswer(stored);
      }
      case 'files.completeUploadExternal': {
        const answer = builtIn();
        if (answer.ok !== true) return answer;
        const files = (typeof a.files === 'string' ? JSON.parse(a.files) : a.files) as { id: string }[];
        const ch = channelOf(a.channel_id);
        for (const f of files) {
          const up = options.upload(f.id);
          if (!up || !ch) continue;
          addMessage({
            ts: nextTs(),
            channel: ch.id,
            user: options.botUserId,
            text: typeof a.initial_comment === 'string' ? a.initial_comment : '',
            file: {
              id: f.id,
              name: up.filename,
              size: Buffer.byteLength(up.content),
              url: `/console/files/${encodeURIComponent(f.id)}`,
            },
          });
        }
        return answer;
      }
      default:
        return builtIn();
    }
  }

  /** response_url posts: a new ephemeral reply, or replace / delete the original. */
  function onResponse(post: ResponseUrlPost): void {
    const ctx = contexts.get(post.id);
    if (!ctx) return;
    const b = post.body;
    const original = ctx.originalTs
      ? messages.find((x) => x.ts === ctx.originalTs && x.channel === ctx.channel)
      : undefined;
    if (b.delete_original === true) {
      if (original) messages.splice(messages.indexOf(original), 1);
      changed();
      return;
    }
    const check = checkMessage('response_url', b);
    if (check.refusal) return;
    if (b.replace_original === true && original) {
      original.text = typeof b.text === 'string' ? b.text : '';
      if (Array.isArray(b.blocks)) original.blocks = b.blocks;
      else delete original.blocks;
      if (check.warnings.length) original.warnings = check.warnings;
      changed();
      return;
    }
    const added = addMessage({
      ts: nextTs(),
      channel: ctx.channel,
      user: options.botUserId,
      ...messageBody(b),
      ...(b.response_type === 'in_channel' ? {} : { ephemeralFor: ctx.userId }),
      ...(check.warnings.length ? { warnings: check.warnings } : {}),
    });
    ctx.originalTs ??= added.ts;
  }

  return {
    intercept,
    onResponse,
    notice,
    channelOf,
    user: (id: string) => users.get(id),
    /** A message the person may see (a private channel's only for its members, an ephemeral only for its owner). */
    message: (userId: string, channel: string, ts: string) =>
      messages.find((x) => x.channel === channel && x.ts === ts && seesMessage(userId, x)),
    /** Whether the person is in the channel (public, their own DM, or a private channel listing them). */
    inChannel: (userId: string, channelId: string) => inChannel(userId, channels.get(channelId)),
    /** The message carrying an uploaded file, if the person may see it. */
    fileMessage: (userId: string, fileId: string) =>
      messages.find((x) => x.file?.id === fileId && seesMessage(userId, x)),
    view: (id: string) => views.get(id),
    topView: (userId: string) => {
      const stack = stacks.get(userId) ?? [];
      const id = stack.at(-1);
      return id ? views.get(id) : undefined;
    },
    homeOf: (userId: string) => {
      const id = homes.get(userId);
      return id ? views.get(id) : undefined;
    },
    /** A person's own line in a channel (a plain message, or what Slack echoes nowhere: kept for context). */
    postAsUser(userId: string, channel: string, text: string): void {
      addMessage({ ts: nextTs(), channel, user: userId, text });
    },
    /** A reply carried in the acknowledgement itself (ack({ text, blocks })): ephemeral to the caller. */
    ackReply(ctx: ResponseContext, body: Json): void {
      const check = checkMessage('ack', body);
      if (check.refusal) return;
      const added = addMessage({
        ts: nextTs(),
        channel: ctx.channel,
        user: options.botUserId,
        ...messageBody(body),
        ...(body.response_type === 'in_channel' ? {} : { ephemeralFor: ctx.userId }),
      });
      ctx.originalTs ??= added.ts;
    },
    newTrigger(userId: string): string {
      const id = `${now()}.${++seq}.console${Math.random().toString(16).slice(2, 10)}`;
      triggers.set(id, { at: now(), userId, used: false });
      for (const [k, t] of triggers) if (now() - t.at > 60_000) triggers.delete(k);
      return id;
    },
    newResponseContext(ctx: ResponseContext): string {
      const id = `console-${++seq}`;
      contexts.set(id, ctx);
      return id;
    },
    /** response_action results of a view_submission. */
    setErrors(viewId: string, errors: Record<string, string>): void {
      const v = views.get(viewId);
      if (!v) return;
      const inputIds = new Set(
        ((v.view.blocks as Json[] | undefined) ?? []).filter((b) => b.type === 'input').map((b) => b.block_id),
      );
      const unknown = Object.keys(errors).filter((id) => !inputIds.has(id));
      if (unknown.length > 0) {
        notice('error', 'Slack would reject the response_action errors: no input block has these block_ids', unknown);
      }
      v.errors = errors;
      changed();
    },
    replaceTop(userId: string, view: Json): boolean {
      const top = stacks.get(userId)?.at(-1);
      const current = top ? views.get(top) : undefined;
      if (!current) return false;
      const bad = checkView('response_action update', view, 'modal');
      if (bad) return false;
      storeView(current.id, userId, 'modal', view);
      changed();
      return true;
    },
    pushView(userId: string, view: Json): boolean {
      const stack = stacks.get(userId) ?? [];
      if (stack.length >= MAX_STACK) {
        refuse('response_action push', 'push_limit_reached', 'A modal stack holds at most 3 views.');
        return false;
      }
      if (checkView('response_action push', view, 'modal')) return false;
      const id = `V${String(++seq).padStart(9, '0')}`;
      storeView(id, userId, 'modal', view);
      stacks.set(userId, [...stack, id]);
      changed();
      return true;
    },
    /** Closes the top view (all: the whole stack). Returns the views closed. */
    closeViews(userId: string, all: boolean): ConsoleView[] {
      const stack = stacks.get(userId) ?? [];
      const closing = all ? stack : stack.slice(-1);
      stacks.set(userId, all ? [] : stack.slice(0, -1));
      changed();
      return closing.flatMap((id) => views.get(id) ?? []);
    },
    snapshot(me: string): Snapshot {
      dmOf(me);
      return {
        me,
        botUserId: options.botUserId,
        users: [...users.values()]
          .filter((u) => !u.isBot)
          .map((u) => ({
            id: u.id,
            name: u.name,
            realName: u.realName ?? u.name,
            role: options.roleLabels[u.id] ?? '',
            deleted: u.deleted === true,
          })),
        channels: [...channels.values()].filter((c) => inChannel(me, c)),
        messages: latestPerChannel(messages.filter((x) => seesMessage(me, x))),
        modals: (stacks.get(me) ?? []).flatMap((id) => views.get(id) ?? []),
        home: (homes.has(me) ? views.get(homes.get(me) ?? '') : undefined) ?? null,
        notices: [...notices],
      };
    },
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
