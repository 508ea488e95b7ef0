/**
 * What every part of a course request's messages is sent with (notify.ts, notify-received.ts): the
 * app's bot client, the sandbox marker, the requests store, a DM, a message rewritten in place.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { openDm } from '../../kernel/slack/notices.js';
import { type CourseRequest, type RequestCard, waitingSince } from '../domain/requests.js';
import type { RequestsDeps } from './deps.js';

/** What every part of a request's messages is sent with: the bot client, the sandbox marker, the store. */
export interface Sender {
  client: webApi.WebClient;
  deps: Pick<AppDeps, 'logger' | 'sandbox' | 'roles' | 'now' | 'records'>;
  requests: Pick<RequestsDeps, 'store' | 'channel' | 'timers'>;
  marked(m: SlackMessage): SlackMessage;
  /** Sends a DM; where it went (undefined: Slack gave no ts). Throws when Slack did not take it. */
  dm(user: string, message: SlackMessage): Promise<RequestCard | undefined>;
  /** Rewrites a message in place (no new notification); its ts, or undefined when Slack refused. */
  replaced(where: RequestCard, message: SlackMessage): Promise<string | undefined>;
  /** When an undecided (or approved, seatless) request expires. */
  expiresAt(r: CourseRequest): string;
}

export function senderOf(client: webApi.WebClient, deps: Sender['deps'], requests: Sender['requests']): Sender {
  const marked = (m: SlackMessage) => withSandboxMarker(m, deps.sandbox);
  return {
    client,
    deps,
    requests,
    marked,
    async dm(user, message) {
      const channel = await openDm(client, user);
      const res = await client.chat.postMessage({ channel, ...marked(message) });
      return res.ts ? { channel, ts: res.ts } : undefined;
    },
    async replaced(where, message) {
      try {
        await client.chat.update({ channel: where.channel, ts: where.ts, ...message });
        return where.ts;
      } catch (error) {
        deps.logger.warn('could not reuse a course request message', { channel: where.channel, error: String(error) });
        return undefined;
      }
    },
    expiresAt: (r) => new Date(Date.parse(waitingSince(r)) + requests.timers.expireAfterMs).toISOString(),
  };
}
