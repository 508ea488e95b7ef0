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
