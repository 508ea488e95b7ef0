/**
 * Delivers the outbox's notice about a write settled after a restart (domain/settled-write.ts): a
 * direct message to the admin who asked for it, worded by blocks/settled-write.ts.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../blocks/common.js';
import { buildSettledWriteMessage } from '../blocks/settled-write.js';
import type { SettledWriteNotice } from '../domain/settled-write.js';

export function isSettledWriteNotice(body: unknown): body is SettledWriteNotice {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as { kind?: unknown; to?: unknown };
  return b.kind === 'settled-write' && typeof b.to === 'string';
}

export async function deliverSettledWrite(
  client: webApi.WebClient,
  notice: SettledWriteNotice,
  sandbox: boolean,
): Promise<void> {
  const message = withSandboxMarker(buildSettledWriteMessage(notice), sandbox);
  await client.chat.postMessage({ channel: notice.to, ...message, unfurl_links: false });
}
