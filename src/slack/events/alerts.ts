/**
 * Alerts in the channel (issue 6): the daily check's poster, and "Let it end" on a license that ends
 * within 7 days (admins only, checked on the click: anyone in the channel can click). Extend is issue
 * 5's change-end-date button, so its modal opens from the same listener as everywhere else.
 */
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
  types,
  webApi,
} from '@slack/bolt';
import { buildAlertMessage, withLicenseSettled } from '../../blocks/alerts.js';
import { buildAdminOnlyMessage, buildErrorMessage, withSandboxMarker } from '../../blocks/common.js';
import type { SlackMessage } from '../../blocks/kit.js';
import type { AlertGroup } from '../../services/alerts.js';
import type { AppDeps } from '../deps.js';
import { SlackBusyError } from '../roles.js';
import { adminOnlyText, roleOf } from '../views/slack-io.js';

/** Posts one alert group; throws when Slack refuses, so the group is not remembered as sent. */
export function createAlertPoster(client: webApi.WebClient, channel: string, deps: AppDeps) {
  return async (group: AlertGroup): Promise<void> => {
    const message = withSandboxMarker(buildAlertMessage(group, deps.now()), deps.sandbox);
    await client.chat.postMessage({ channel, ...message, unfurl_links: false });
  };
}

const LICENSE_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$/;
const ALERTS_NOT_SET_UP =
  'Alerts are not set up in this License Desk process (it has no data directory), so nothing was recorded; the license ends on its date either way.';

export function createLetItEndHandler(deps: AppDeps) {
  return async ({
    ack,
    body,
    action,
    client,
    respond,
  }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs): Promise<void> => {
    await ack();
    const tell = async (message: SlackMessage): Promise<void> => {
      const reply = { response_type: 'ephemeral' as const, replace_original: false };
      await respond({ ...reply, ...withSandboxMarker(message, deps.sandbox) }).catch((error: unknown) =>
        deps.logger.warn('respond failed', { error: String(error) }),
      );
    };
    const role = await roleOf(deps, client, body.user.id);
    if (role instanceof SlackBusyError) return tell(buildErrorMessage(adminOnlyText(deps, role)));
    if (role !== 'admin') return tell(buildAdminOnlyMessage(deps.roles.whoToAsk()));
    const licenseId = action.value ?? '';
    if (!LICENSE_ID.test(licenseId)) {
      deps.logger.warn('let-it-end: malformed license id');
      return tell(buildErrorMessage('That button no longer works; nothing was changed.'));
    }
    // Without the desk nothing remembers the choice, so the message must not say it was made.
    if (!deps.desk) return tell(buildErrorMessage(ALERTS_NOT_SET_UP));
    await deps.desk.alerts.acknowledge(licenseId, body.user.id);
    deps.logger.info('alert: license left to end', { licenseId, user: body.user.id });
    const channel = body.channel?.id ?? body.container.channel_id;
    const ts = body.message?.ts ?? body.container.message_ts;
    if (!channel || !ts || !body.message) return;
    await client.chat
      .update({
        channel,
        ts,
        text: String(body.message.text ?? 'License Desk alert'),
        // Slack's own blocks, echoed back with one of ours replaced (withLicenseSettled).
        blocks: withLicenseSettled(body.message.blocks ?? [], licenseId, body.user.id) as types.KnownBlock[],
      })
      .catch((error: unknown) => deps.logger.warn('could not update the alert message', { error: String(error) }));
  };
}
