/**
 * What the outbox's messages say, and how they reach Slack (docs/records.md, "The outbox"). A feature
 * registers a renderer for each kind of notice it enqueues; the outbox hands every message it sends
 * to `deliver`, which finds the renderer by the notice's `kind` and gives it the bot's client.
 */
import type { webApi } from '@slack/bolt';
import type { Records } from '../db/open.js';
import type { AuditLog } from '../services/audit.js';
import { type Outbox, type OutboxSender, Undeliverable } from '../services/outbox.js';

/** Sends one notice; returns once Slack accepted it, throws to be tried again (Undeliverable: never). */
export type NoticeRenderer = (
  client: webApi.WebClient,
  notice: { kind: string } & Record<string, unknown>,
) => Promise<void>;

export interface Notices {
  register(kind: string, render: NoticeRenderer): void;
  /** The bot client messages are sent with, once the app is built. */
  attach(client: webApi.WebClient): void;
  deliver(body: unknown): Promise<void>;
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
    async deliver(body) {
      const notice = body as { kind?: unknown } & Record<string, unknown>;
      const kind = typeof notice?.kind === 'string' ? notice.kind : undefined;
      const render = kind ? renderers.get(kind) : undefined;
      if (!kind || !render) throw new Undeliverable(`no renderer for a notice of kind ${String(kind)}`);
      // Sent before the app was built: the outbox tries again on its next round.
      if (!client) throw new Error('the Slack client is not attached yet');
      await render(client, { ...notice, kind });
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

/** What a feature that writes records and queues notices is composed with (reclaim, automatic return). */
export interface NoticeFeatureOptions<Settings> {
  client: () => webApi.WebClient;
  audit: () => AuditLog | undefined;
  records: Records;
  outbox: Outbox & OutboxSender;
  settings: Settings;
  /** How often its scheduled work runs (tests pass their own). */
  everyMs?: number;
}
