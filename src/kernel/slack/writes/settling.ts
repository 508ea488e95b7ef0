/**
 * The admin's writes left in flight by a process that is gone (docs/records.md, "Writes in flight"):
 * a settle handler per kind registered with the app's settler (services/settle-writes.ts), and the
 * notice that tells the admin what became of the write (domain/writes/settled-notice.ts: a DM worded
 * by blocks/writes/settled-notice.ts) registered with the notices. Registered once the audit trail
 * exists, before the settler starts.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../blocks/common.js';
import { buildSettledWriteMessage } from '../../blocks/writes/settled-notice.js';
import type { SettledWriteNotice } from '../../domain/writes/settled-notice.js';
import type { AuditLog } from '../../services/audit.js';
import { registerWriteSettlers } from '../../services/writes/settle.js';
import type { AppDeps } from '../deps.js';

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

export function registerWriteSettling(deps: AppDeps, audit: AuditLog): void {
  const { records, intents, settler, outbox, notices } = deps;
  if (!records || !intents || !settler || !outbox || !notices) return;
  registerWriteSettlers(settler, { licensing: deps.licensing, audit, records, intents, outbox, now: deps.now });
  notices.register('settled-write', async (client, notice) => {
    if (!isSettledWriteNotice(notice)) throw new Error('a settled-write notice without its admin');
    await sendSettledWriteNotice(client, notice, deps.sandbox);
  });
}
