/**
 * Signing exactly as Slack signs (platform.md section 2): "v0=" + hex HMAC-SHA256 over
 * "v0:<timestamp>:<raw body>", with the exact Content-Type Bolt expects.
 */
import { createHmac } from 'node:crypto';
import { TEST_USERS } from './fake-slack.js';

export const FORM = 'application/x-www-form-urlencoded';

export function slackSignature(secret: string, timestamp: number | string, rawBody: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`;
}

export interface SignOptions {
  /** Unix seconds; default now. */
  timestamp?: number;
  /** Default application/x-www-form-urlencoded (commands, interactions); events use application/json. */
  contentType?: string;
}

export function slackHeaders(secret: string, rawBody: string, options: SignOptions = {}): Record<string, string> {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000);
  return {
    'Content-Type': options.contentType ?? FORM,
    'X-Slack-Request-Timestamp': String(timestamp),
    'X-Slack-Signature': slackSignature(secret, timestamp, rawBody),
  };
}

/** A slash command's wire body: plain form fields, every value a string. */
export function commandBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** An interaction's wire body: one form field `payload` holding the JSON. */
export function interactionBody(payload: unknown): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

/**
 * A view_submission, by default by the test workspace's admin (dana.lee), signed-ready: what a modal
 * submits in a real process started by run-main.ts (the in-process harness has its own viewSubmission).
 */
export function viewSubmissionBody(
  view: { id: string; callback_id: string; private_metadata?: string; blocks?: unknown[] },
  state: unknown,
  triggerId: string,
  user: { id: string; name: string } = { id: TEST_USERS.admin, name: 'dana.lee' },
): string {
  return interactionBody({
    type: 'view_submission',
    team: { id: 'T0ACME0001', domain: 'acme-learning' },
    user: { id: user.id, username: user.name, name: user.name, team_id: 'T0ACME0001' },
    api_app_id: 'A0LICBOT01',
    trigger_id: triggerId,
    view: {
      id: view.id,
      team_id: 'T0ACME0001',
      type: 'modal',
      callback_id: view.callback_id,
      private_metadata: view.private_metadata ?? '',
      blocks: view.blocks ?? [],
      state,
      hash: `${Date.now()}.hash`,
    },
  });
}

/**
 * A click by the test workspace's admin (dana.lee) on a button of an ephemeral message in #license-ops,
 * signed-ready: what a real process started by run-main.ts gets when the admin clicks.
 */
export function opsButtonClickBody(
  button: { actionId: string; blockId: string; value: string },
  message: { ts: string; responseUrl: string },
  triggerId: string,
): string {
  return interactionBody({
    type: 'block_actions',
    user: { id: TEST_USERS.admin, username: 'dana.lee', name: 'dana.lee', team_id: 'T0ACME0001' },
    api_app_id: 'A0LICBOT01',
    container: { type: 'message', message_ts: message.ts, channel_id: 'C0LICOPS01', is_ephemeral: true },
    trigger_id: triggerId,
    team: { id: 'T0ACME0001', domain: 'acme-learning' },
    channel: { id: 'C0LICOPS01', name: 'license-ops' },
    state: { values: {} },
    response_url: message.responseUrl,
    actions: [
      {
        type: 'button',
        action_id: button.actionId,
        block_id: button.blockId,
        value: button.value,
        action_ts: `${Date.now() / 1000}`,
      },
    ],
  });
}

/** `user` opens the app's Home tab: the event_callback (id `eventId`) Slack posts, as JSON. */
export function appHomeOpenedBody(user: string, eventId: string): string {
  return JSON.stringify({
    token: 'qWeRtY1234567890AsDfGhJk',
    team_id: 'T0ACME0001',
    api_app_id: 'A0LICBOT01',
    event: { type: 'app_home_opened', user, channel: 'D0HOME0001', tab: 'home', event_ts: `${Date.now() / 1000}` },
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [{ team_id: 'T0ACME0001', user_id: 'U0LICBOT01', is_bot: true, is_enterprise_install: false }],
  });
}
