/**
 * Alerts in the channel: the daily check's poster, and "Let it end" on a license that ends
 * within 7 days (admins only, checked by the gate on the click: anyone in the channel can click). Its
 * Extend is the change-end-date button, so its modal opens from the same listener as everywhere else.
 */
import type { types, webApi } from '@slack/bolt';
import { buildErrorMessage, buildNoticeMessage, withSandboxMarker } from '../../kernel/blocks/common.js';
import { alertLicenseBlockId } from '../../kernel/blocks/ids.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import { dayText } from '../../kernel/domain/end-date.js';
import { ID_PATTERN } from '../../kernel/domain/ids.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { onClick } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import type { Surface } from '../../kernel/slack/state.js';
import { buildAlertMessage, buildNothingNewMessage, withLicenseSettled } from '../blocks/alerts.js';
import type { AlertGroup, LetEndRefusal, PostedAt } from '../services/alerts.js';

/**
 * Posts one alert group; throws when Slack refuses, so the group is not remembered as sent. Resolves
 * with where it landed, so that a "Let it end" click can be matched to a message License Desk posted.
 */
export function createAlertPoster(client: webApi.WebClient, channel: string, deps: AppDeps) {
  return async (group: AlertGroup): Promise<PostedAt | undefined> => {
    const message = withSandboxMarker(buildAlertMessage(group, deps.now()), deps.sandbox);
    const res = await client.chat.postMessage({ channel, ...message, unfurl_links: false });
    return typeof res.ts === 'string' ? { channel: res.channel ?? channel, ts: res.ts } : undefined;
  };
}

/** The check run on demand posted nothing: the person who ran it is told so, only them. Never throws. */
export async function tellNothingNew(
  client: webApi.WebClient,
  channel: string,
  user: string,
  deps: AppDeps,
  lastAt: string | undefined,
): Promise<void> {
  const message = withSandboxMarker(buildNothingNewMessage(lastAt), deps.sandbox);
  try {
    await client.chat.postEphemeral({ channel, user, text: message.text, blocks: message.blocks });
  } catch (error) {
    deps.logger.warn('could not tell that the alert check found nothing new', { error: String(error) });
  }
}

const ALERTS_NOT_SET_UP =
  'Alerts are not set up in this License Desk process (it has no data directory), so nothing was recorded; the license ends on its date either way.';

const NO_LONGER_WORKS = 'That button no longer works; nothing was changed.';

/** Plain text (the notice builder escapes it). */
function letEndRefusalText(refusal: LetEndRefusal, licenseId: string): string {
  if (refusal.kind === 'not-our-message') return NO_LONGER_WORKS;
  if (refusal.kind === 'ended')
    return `License ${licenseId} has already ended; there is nothing left to decide. Nothing was recorded.`;
  const end = dayText(refusal.license.end);
  return `No alert announced license ${licenseId} ending${end ? ` on ${end}` : ''} (its end may have moved since), so nothing was recorded. \`/licenses show ${licenseId}\` shows it as it is now.`;
}

export function createLetItEndHandler(s: Surface) {
  const { deps } = s;
  return onClick(s, { need: 'admin' }, async ({ body, action, client, respond }): Promise<void> => {
    const tell = async (message: SlackMessage): Promise<void> => {
      const reply = { response_type: 'ephemeral' as const, replace_original: false };
      await respond({ ...reply, ...withSandboxMarker(message, deps.sandbox) }).catch((error: unknown) =>
        deps.logger.warn('respond failed', { error: String(error) }),
      );
    };
    const licenseId = action.value ?? '';
    if (!ID_PATTERN.test(licenseId)) {
      deps.logger.warn('let-it-end: malformed license id');
      return tell(buildErrorMessage(NO_LONGER_WORKS));
    }
    // Without the desk nothing remembers the choice, so the message must not say it was made.
    if (!deps.desk) return tell(buildErrorMessage(ALERTS_NOT_SET_UP));
    // The clicked message must hold this license's row, or the click and its message do not match;
    // and it must be an alert License Desk posted (letEnd checks where it is against what was posted).
    const blockId = alertLicenseBlockId(licenseId);
    const blocks: unknown[] = body.message?.blocks ?? [];
    const channel = body.channel?.id ?? body.container.channel_id;
    const ts = body.message?.ts ?? body.container.message_ts;
    if (!channel || !ts || !blocks.some((b) => (b as { block_id?: unknown }).block_id === blockId)) {
      deps.logger.warn('let-it-end: the message has no row for this license', { licenseId });
      return tell(buildErrorMessage(NO_LONGER_WORKS));
    }
    let result: Awaited<ReturnType<typeof deps.desk.alerts.letEnd>>;
    try {
      result = await deps.desk.alerts.letEnd(licenseId, body.user.id, { channel, ts });
    } catch (error) {
      deps.logger.warn('let-it-end: could not read the license', { licenseId, error: String(error) });
      return tell(buildErrorMessage(`${presentError(error, 'license', 'admin')} Nothing was recorded.`));
    }
    if (!result.ok) return tell(buildNoticeMessage(letEndRefusalText(result.refusal, licenseId)));
    deps.logger.info('alert: license left to end', { licenseId, user: body.user.id });
    if (!body.message) return;
    await client.chat
      .update({
        channel,
        ts,
        text: String(body.message.text ?? 'License Desk alert'),
        // Slack's own blocks, echoed back with one of ours replaced (withLicenseSettled).
        blocks: withLicenseSettled(blocks, licenseId, body.user.id) as types.KnownBlock[],
      })
      .catch((error: unknown) => deps.logger.warn('could not update the alert message', { error: String(error) }));
  });
}
