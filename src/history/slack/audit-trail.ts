/**
 * The audit log of a running app: log lines always, a row of the audit table when the app has its
 * records (main.ts always gives them), and a message in AUDIT_CHANNEL when set, posted through the app's own Web API client (chat:write; the bot
 * must be a member of that channel: invite it with `/invite @License Desk`). Posts go through the
 * audit post queue (services/audit-queue.ts): Slack's pace, refusal bursts folded, 429s retried.
 */
import type { webApi } from '@slack/bolt';
import { type AuditLog, type AuditMetadata, createAuditLog } from '../../kernel/services/audit.js';
import type { AuditPostingOptions } from '../../kernel/services/audit-queue.js';
import { PostRateLimitedError } from '../../kernel/services/audit-queue.js';
import type { AppDeps } from '../../kernel/slack/deps.js';

/** The client rejects a 429 at once (rejectRateLimitedCalls in app.ts) with Retry-After in seconds. */
function rateLimitedAfterMs(error: unknown): number | undefined {
  const e = error as { code?: unknown; retryAfter?: unknown };
  if (e?.code !== 'slack_webapi_rate_limited_error') return undefined;
  return typeof e.retryAfter === 'number' && e.retryAfter >= 0 ? e.retryAfter * 1000 : 1000;
}

export function createSlackAuditLog(client: webApi.WebClient, deps: AppDeps, posting?: AuditPostingOptions): AuditLog {
  const channel = deps.auditChannel;
  const post = async (text: string, blocks: unknown[], metadata: AuditMetadata): Promise<void> => {
    if (!channel) return;
    // The blocks are plain Block Kit JSON built by services/audit.ts (no Slack types there). Posting
    // message metadata needs no scope beyond chat:write (docs/audit-trail.md, "Message metadata").
    const args = {
      channel,
      text,
      blocks,
      metadata,
      unfurl_links: false,
      unfurl_media: false,
    } as webApi.ChatPostMessageArguments;
    try {
      await client.chat.postMessage(args);
    } catch (error) {
      const after = rateLimitedAfterMs(error);
      throw after === undefined ? error : new PostRateLimitedError(after);
    }
  };
  return createAuditLog({
    logger: deps.logger,
    ...(channel ? { channel, post } : {}),
    ...(deps.records ? { records: deps.records } : {}),
    ...(posting ? { posting } : {}),
  });
}
