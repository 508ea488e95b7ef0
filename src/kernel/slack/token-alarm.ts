/**
 * The licensing service refuses License Desk's token (401): nobody can see or change licenses until
 * an admin fixes LICENSING_API_TOKEN. The person who met it gets one sentence for their role
 * (present.ts: only license admins are told the setting); the admins are told once per
 * ALARM_PERIOD_MS per process: one post to AUDIT_CHANNEL when set, else a DM to each user listed in
 * LICENSE_ADMINS. The message names the setting, never the token. With neither, or when no post
 * reached Slack, the log says it and nobody is promised that the admins know; an alarm that reached
 * nobody is tried again at the next refusal.
 */

import type { webApi } from '@slack/bolt';
import { buildErrorMessage, withSandboxMarker } from '../blocks/common.js';
import { isLicensingError } from '../licensing/errors.js';
import type { AppDeps } from './deps.js';
import { openDm } from './notices.js';
import { presentError, type Subject } from './present.js';

/** At most one alarm an hour: a broken token fails every request until someone fixes it. */
export const ALARM_PERIOD_MS = 60 * 60_000;
/** DMs per alarm when there is no audit channel (LICENSE_ADMINS may list many people). */
const MAX_DMS = 10;

export const TOKEN_ALARM_TEXT =
  'License Desk cannot reach the licensing service: it refuses License Desk’s API token (401 Unauthorized), so nobody can see or change licenses. Generate a new token in the license web interface, put it in LICENSING_API_TOKEN and restart License Desk.';

const TOLD =
  "License Desk can't reach the licensing service right now, so nothing can be shown or changed. The license admins have been told; please try again later.";

/** The last alarm: when it was raised and whether it reached anyone (settles when the posts do). */
const lastAlarm = new WeakMap<AppDeps, { at: number; told: Promise<boolean> }>();
/** How long a person waits for the alarm's posts before being answered; Slack is quick or not there. */
const TELL_WAIT_MS = 3_000;

function recipients(deps: AppDeps): { channel: string } | { users: readonly string[] } | undefined {
  if (deps.auditChannel) return { channel: deps.auditChannel };
  const users = deps.roles.adminUsers?.() ?? [];
  return users.length > 0 ? { users: users.slice(0, MAX_DMS) } : undefined;
}

async function tellAdmins(
  deps: AppDeps,
  client: webApi.WebClient,
  to: { channel: string } | { users: readonly string[] },
): Promise<boolean> {
  deps.logger.error('the licensing service refuses the API token (401); telling the admins', {
    via: 'channel' in to ? 'audit channel' : 'direct messages',
  });
  const message = withSandboxMarker(buildErrorMessage(TOKEN_ALARM_TEXT), deps.sandbox);
  const post = async (channel: string) => {
    await client.chat.postMessage({ channel, text: message.text, blocks: message.blocks, unfurl_links: false });
  };
  const sends = 'channel' in to ? [post(to.channel)] : to.users.map(async (user) => post(await openDm(client, user)));
  const results = await Promise.allSettled(sends);
  const failed = results.filter((r) => r.status === 'rejected').length;
  if (failed > 0) deps.logger.warn('could not tell every admin about the refused token', { failed });
  return failed < results.length;
}

/**
 * Tells the admins that the token is refused, unless that was done within ALARM_PERIOD_MS. Resolves
 * true only when at least one post reached Slack (waiting at most TELL_WAIT_MS; a slower post counts
 * as on its way). An alarm that reached nobody is forgotten, so the next refusal tries again.
 */
export async function raiseTokenAlarm(deps: AppDeps, client: webApi.WebClient): Promise<boolean> {
  const to = recipients(deps);
  const now = Date.now();
  const last = lastAlarm.get(deps);
  // Within the period: told already (or, with nobody to tell, logged already).
  if (last !== undefined && now - last.at < ALARM_PERIOD_MS) return last.told;
  if (!to) {
    lastAlarm.set(deps, { at: now, told: Promise.resolve(false) });
    deps.logger.error('the licensing service refuses the API token (401); no AUDIT_CHANNEL or LICENSE_ADMINS to tell');
    return false;
  }
  const told = tellAdmins(deps, client, to).catch(() => false);
  const alarm = { at: now, told };
  lastAlarm.set(deps, alarm);
  void told.then((ok) => {
    if (!ok && lastAlarm.get(deps) === alarm) lastAlarm.delete(deps);
  });
  let timer: NodeJS.Timeout | undefined;
  const slow = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(true), TELL_WAIT_MS);
    timer.unref();
  });
  try {
    return await Promise.race([told, slow]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * presentError for someone the gate let through (`canChange`: a license admin, from the verdict); a
 * 401 also raises the alarm, and someone who is no license admin hears that the admins have been told
 * only when they have been.
 */
export async function presentErrorTo(
  deps: AppDeps,
  client: webApi.WebClient,
  canChange: boolean,
  error: unknown,
  subject: Subject = 'other',
): Promise<string> {
  const audience = canChange ? 'admin' : 'other';
  if (isLicensingError(error) && error.kind === 'unauthorized') {
    const told = await raiseTokenAlarm(deps, client);
    if (told && audience === 'other') return TOLD;
  }
  return presentError(error, subject, audience);
}
