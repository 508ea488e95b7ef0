/**
 * The notice that tells an admin what became of their write a process left in flight (docs/records.md,
 * "Writes in flight"): domain/writes/settled-notice.ts, worded by blocks/writes/settled-notice.ts, sent
 * as a DM. The changes feature registers it with its settlers (changes/slack/feature.ts).
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../blocks/common.js';
import { buildSettledWriteMessage } from '../../blocks/writes/settled-notice.js';
import type { SettledWriteNotice } from '../../domain/writes/settled-notice.js';

export function isSettledWriteNotice(body: unknown): body is SettledWriteNotice {
  if (typeof body !== 'object' || body === null) return false;
  const b = body as { kind?: unknown; to?: unknown };
  return b.kind === 'settled-write' && typeof b.to === 'string';
}

/** Sends the settled-write notice: a direct message to the admin who asked for the write. */
export async function sendSettledWriteNotice(
  client: webApi.WebClient,
  notice: SettledWriteNotice,
  sandbox: boolean,
): Promise<void> {
  const message = withSandboxMarker(buildSettledWriteMessage(notice), sandbox);
  await client.chat.postMessage({ channel: notice.to, ...message, unfurl_links: false });
}
