/**
 * The audit log of a running app: log lines always, the audit file when one is configured, and a
 * message in AUDIT_CHANNEL when set, posted through the app's own Web API client (chat:write; the bot
 * must be a member of that channel: invite it with `/invite @License Desk`).
 */
import type { webApi } from '@slack/bolt';
import { type AuditLog, createAuditLog } from '../services/audit.js';
import type { AppDeps } from './deps.js';

export function createSlackAuditLog(client: webApi.WebClient, deps: AppDeps): AuditLog {
  const channel = deps.auditChannel;
  const post = async (text: string, blocks: unknown[]): Promise<void> => {
    if (!channel) return;
    // The blocks are plain Block Kit JSON built by services/audit.ts (no Slack types there).
    const args = { channel, text, blocks, unfurl_links: false, unfurl_media: false } as webApi.ChatPostMessageArguments;
    await client.chat.postMessage(args);
  };
  return createAuditLog({
    logger: deps.logger,
    ...(channel ? { channel, post } : {}),
    ...(deps.auditFile ? { file: deps.auditFile } : {}),
  });
}
