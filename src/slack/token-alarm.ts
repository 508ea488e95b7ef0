/**
 * The licensing service refuses License Desk's token (401): nobody can see or change licenses until
 * an admin fixes LICENSING_API_TOKEN. The person who met it gets one sentence for their role
 * (present.ts: only license admins are told the setting); the admins are told once per
 * ALARM_PERIOD_MS per process: one post to AUDIT_CHANNEL when set, else a DM to each user listed in
 * LICENSE_ADMINS. The message names the setting, never the token. With neither, the log says it
 * and nobody is promised that the admins know.
 */
import type { webApi } from '@slack/bolt';
import { buildErrorMessage, withSandboxMarker } from '../blocks/common.js';
import { isLicensingError } from '../licensing/errors.js';
import { openDm } from './bulk/notifier.js';
import type { AppDeps, Role } from './deps.js';
import { presentError, type Subject } from './present.js';

/** At most one alarm an hour: a broken token fails every request until someone fixes it. */
export const ALARM_PERIOD_MS = 60 * 60_000;
/** DMs per alarm when there is no audit channel (LICENSE_ADMINS may list many people). */
const MAX_DMS = 10;

export const TOKEN_ALARM_TEXT =
  'License Desk cannot reach the licensing service: it refuses License Desk’s API token (401 Unauthorized), so nobody can see or change licenses. Generate a new token in the license web interface, put it in LICENSING_API_TOKEN and restart License Desk.';

const TOLD =
  "License Desk can't reach the licensing service right now, so nothing can be shown or changed. The license admins have been told; please try again later.";

const lastRaised = new WeakMap<AppDeps, number>();

function recipients(deps: AppDeps): { channel: string } | { users: readonly string[] } | undefined {
  if (deps.auditChannel) return { channel: deps.auditChannel };
  const users = deps.roles.adminUsers?.() ?? [];
  return users.length > 0 ? { users: users.slice(0, MAX_DMS) } : undefined;
}

/**
 * Tells the admins that the token is refused, unless that was done within ALARM_PERIOD_MS. Returns
 * at once (the posts go on in the background and never throw); true when someone is (being) told.
 */
export function raiseTokenAlarm(deps: AppDeps, client: webApi.WebClient): boolean {
  const to = recipients(deps);
  const now = Date.now();
  const last = lastRaised.get(deps);
  // Within the period: told already (or, with nobody to tell, logged already).
  if (last !== undefined && now - last < ALARM_PERIOD_MS) return to !== undefined;
  lastRaised.set(deps, now);
  if (!to) {
    deps.logger.error('the licensing service refuses the API token (401); no AUDIT_CHANNEL or LICENSE_ADMINS to tell');
    return false;
  }
  deps.logger.error('the licensing service refuses the API token (401); telling the admins', {
    via: 'channel' in to ? 'audit channel' : 'direct messages',
  });
  const message = withSandboxMarker(buildErrorMessage(TOKEN_ALARM_TEXT), deps.sandbox);
  const post = async (channel: string) => {
    await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, unfurl_links: false });
  };
  const sends = 'channel' in to ? [post(to.channel)] : to.users.map(async (user) => post(await openDm(client, user)));
  void Promise.allSettled(sends).then((results) => {
    const failed = results.filter((r) => r.status === 'rejected').length;
    if (failed > 0) deps.logger.warn('could not tell every admin about the refused token', { failed });
  });
  return true;
}

/**
 * presentError for someone with `role`; a 401 also raises the alarm, and someone who is no license
 * admin hears that the admins have been told only when they have been.
 */
export function presentErrorTo(
  deps: AppDeps,
  client: webApi.WebClient,
  role: Role,
  error: unknown,
  subject: Subject = 'other',
): string {
  const audience = role === 'admin' ? 'admin' : 'other';
  if (isLicensingError(error) && error.kind === 'unauthorized') {
    const told = raiseTokenAlarm(deps, client);
    if (told && audience === 'other') return TOLD;
  }
  return presentError(error, subject, audience);
}
