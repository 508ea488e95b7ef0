/**
 * Telling a person: the one module for notices (docs/architecture.md, "Words"). What the outbox's
 * messages say, and how they reach Slack (docs/records.md, "The outbox"): a feature registers a
 * renderer for each kind of notice it enqueues; the outbox hands every message it sends to `deliver`,
 * which finds the renderer by the notice's `kind` and gives it the bot's client. And the one DM
 * sender every notice, bulk report and alarm uses: `openDm`, `sendDm`, `tellByDm`.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../blocks/common.js';
import type { SlackMessage } from '../blocks/kit.js';
import { buildOutcomeMessage, type Outcome } from '../blocks/outcome.js';
import type { Records } from '../db/open.js';
import type { Logger } from '../licensing/types.js';
import type { AuditLog } from '../services/audit.js';
import { EVERY_STEP, type NoticeSteps, type Outbox, type OutboxSender, Unsendable } from '../services/outbox.js';

/**
 * Sends one notice; returns once Slack accepted every part of it, throws to be tried again
 * (Unsendable: never). `steps`: the parts sent on an earlier try (see `noticeParts`).
 */
export type NoticeRenderer = (
  client: webApi.WebClient,
  notice: { kind: string } & Record<string, unknown>,
  steps: NoticeSteps,
) => Promise<void>;

/** Slack's answers that no retry can change: the person or the channel is gone, or cannot be written to. */
const NEVER = new Set([
  'channel_not_found',
  'is_archived',
  'user_not_found',
  'users_not_found',
  'account_inactive',
  'user_disabled',
  'cannot_dm_bot',
  'not_in_channel',
  'restricted_action',
]);

/** A Slack error that no retry can change, as Unsendable; any other error as it is. */
export function whyUnsendable(error: unknown): unknown {
  if (error instanceof Unsendable) return error;
  const code = (error as { data?: { error?: unknown } } | null)?.data?.error;
  return typeof code === 'string' && NEVER.has(code) ? new Unsendable(code) : error;
}

/**
 * The parts of one notice (several DMs, card copies, a thread reply): each sent once across tries
 * (`steps`), every one tried even when one fails, and `settle()` throws after the last when any
 * failed, so the outbox tries the notice again later and sends only the parts left.
 */
export function noticeParts(steps: NoticeSteps = EVERY_STEP) {
  const failures: unknown[] = [];
  return {
    /** Sends one part unless an earlier try did; false when it failed (settle() will throw). */
    async send(name: string, send: () => Promise<void>): Promise<boolean> {
      try {
        await steps.once(name, send);
        return true;
      } catch (error) {
        failures.push(whyUnsendable(error));
        return false;
      }
    },
    settle(): void {
      if (failures.length === 0) return;
      const first = failures[0];
      const why = first instanceof Error ? first.message : String(first);
      // Only parts that can never be delivered: no retry helps.
      if (failures.every((f) => f instanceof Unsendable)) throw new Unsendable(why);
      throw new Error(`${failures.length} part(s) of the message failed: ${why}`, { cause: first });
    },
  };
}

export interface Notices {
  register(kind: string, render: NoticeRenderer): void;
  /** The bot client messages are sent with, once the app is built. */
  attach(client: webApi.WebClient): void;
  deliver(body: unknown, steps?: NoticeSteps): Promise<void>;
}

export function createNotices(): Notices {
  const renderers = new Map<string, NoticeRenderer>();
  let client: webApi.WebClient | undefined;
  return {
    register(kind, render) {
      renderers.set(kind, render);
    },
    attach(c) {
      client = c;
    },
    async deliver(body, steps = EVERY_STEP) {
      const notice = body as { kind?: unknown } & Record<string, unknown>;
      const kind = typeof notice?.kind === 'string' ? notice.kind : undefined;
      const render = kind ? renderers.get(kind) : undefined;
      if (!kind || !render) throw new Unsendable(`no renderer for a notice of kind ${String(kind)}`);
      // Sent before the app was built: the outbox tries again on its next round.
      if (!client) throw new Error('the Slack client is not attached yet');
      try {
        await render(client, { ...notice, kind }, steps);
      } catch (error) {
        throw whyUnsendable(error);
      }
    },
  };
}

/** A guard for the notices of one feature: true when `body` has one of `kinds`. */
export function noticeOf<T>(kinds: readonly string[]): (body: unknown) => body is T {
  const known = new Set<string>(kinds);
  return (body: unknown): body is T => {
    const kind = (body as { kind?: unknown } | null)?.kind;
    return typeof kind === 'string' && known.has(kind);
  };
}

/**
 * A feature's `deliver`: sends `body` with `send` when it is one of the feature's notices (`is`), and
 * answers false for any other kind.
 */
export function deliverIf<T>(
  is: (body: unknown) => body is T,
  send: (notice: T, steps: NoticeSteps) => Promise<unknown>,
) {
  return async (body: unknown, steps: NoticeSteps = EVERY_STEP): Promise<boolean> => {
    if (!is(body)) return false;
    await send(body, steps);
    return true;
  };
}

/** What a feature that writes records and queues notices is composed with (reclaim, automatic return). */
export interface NoticeFeatureOptions<Settings> {
  /** The app's bot client and audit trail: the feature is composed once the app exists. */
  client: webApi.WebClient;
  audit: AuditLog;
  records: Records;
  outbox: Outbox & OutboxSender;
  settings: Settings;
  /** How often its scheduled work runs (tests pass their own). */
  everyMs?: number;
}

/**
 * The one way License Desk opens a direct message: conversations.open (scope im:write), which gives the
 * DM's channel id; every notice, bulk report and alarm posts there.
 */
export async function openDm(client: webApi.WebClient, userId: string): Promise<string> {
  const res = await client.conversations.open({ users: userId });
  const id = res.channel?.id;
  if (!id) throw new Error('conversations.open returned no channel');
  return id;
}

/**
 * A message in the person's DM with the app (conversations.open, scope im:write; then chat:write):
 * for when neither a modal nor a response_url nor a channel reply can tell them. Never throws.
 */
export async function tellByDm(
  deps: { sandbox: boolean; logger: Logger },
  client: webApi.WebClient,
  user: string,
  what: Outcome | SlackMessage,
): Promise<boolean> {
  try {
    await sendDm(deps, client, user, what);
    return true;
  } catch (error) {
    deps.logger.error('could not tell the person by DM either', { user, error: String(error) });
    return false;
  }
}

/** The same DM, for a sender that retries (the outbox's notices): throws when Slack did not take it. */
export async function sendDm(
  deps: { sandbox: boolean },
  client: webApi.WebClient,
  user: string,
  what: Outcome | SlackMessage,
): Promise<{ channel: string; ts: string | undefined }> {
  const message = withSandboxMarker('headline' in what ? buildOutcomeMessage(what) : what, deps.sandbox);
  const channel = await openDm(client, user);
  const res = await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks });
  return { channel, ts: res.ts };
}
