/**
 * The one authorization gate. Every surface (command, button, form, shortcut, App Home) declares what
 * it needs, `viewer` or `admin`, and asks here once per request; this is the only place that compares
 * roles. The role is asked fresh (roles.ts caches Slack's answers briefly) and never read from a
 * payload. When Slack rate-limits the check, the verdict says so: the person may well be an admin, so
 * they are asked to try again, never told they have no access.
 */
import type { webApi } from '@slack/bolt';
import type { AppDeps, Role } from './deps.js';
import { slackBusyText } from './present.js';
import { SlackBusyError } from './roles.js';

/** What a surface needs: looking (viewers and admins) or changing licenses (admins). */
export type Need = 'viewer' | 'admin';

/** What a subcommand needs: a role, or (asking for a course) being someone who may request. */
export type CommandNeed = Need | 'requester';

/**
 * Asking for a course (REQUESTERS): a third need, beside the roles. Any full member by default;
 * `canDecide` says whether the same person may also decide requests (a license admin).
 */
export type RequesterVerdict =
  | { allowed: true; canDecide: boolean; role: Role }
  | { allowed: false; reason: 'requests-off' | 'not-member' | 'not-listed' | 'slack-busy'; text: string };

/** A role that was let through. */
export type Granted = Exclude<Role, 'none'>;

export type Refusal = 'no-access' | 'admins-only' | 'slack-busy';

export type Verdict =
  | { allowed: true; role: Granted; canChange: boolean }
  | {
      allowed: false;
      reason: Refusal;
      /** One sentence for the person: what happened and whom to ask. */
      text: string;
      /** The role, when it is known ('slack-busy' leaves it unknown). */
      role?: Role;
    };

const RANK: Record<Role, number> = { none: 0, viewer: 1, admin: 2 };

/** The one comparison of roles in License Desk. */
export function permits(role: Role, need: Need): boolean {
  return RANK[role] >= RANK[need];
}

/** The sentences of a refusal, written once. */
export function refusalText(deps: Pick<AppDeps, 'roles'>, reason: Exclude<Refusal, 'slack-busy'>): string {
  const who = deps.roles.whoToAsk();
  return reason === 'no-access'
    ? `Sorry, you don't have access to License Desk. Please ask ${who} to add you.`
    : `Only license admins can change licenses. Please ask ${who} if you need to.`;
}

/** May `userId` request a course? Asked fresh, never from a payload; fails closed like the roles. */
export async function authorizeRequester(
  deps: Pick<AppDeps, 'roles' | 'logger'>,
  client: webApi.WebClient,
  userId: string,
): Promise<RequesterVerdict> {
  const who = deps.roles.whoToAsk();
  try {
    const may = deps.roles.mayRequest ? await deps.roles.mayRequest(client, userId) : 'off';
    if (may === 'off') {
      return {
        allowed: false,
        reason: 'requests-off',
        text: `Course requests are turned off here. Please ask ${who} for a license.`,
      };
    }
    if (may === 'not-member') {
      return {
        allowed: false,
        reason: 'not-member',
        text: `Sorry, only full members of this workspace can request a course (not guests or bots). Please ask ${who}.`,
      };
    }
    if (may === 'not-listed') {
      return {
        allowed: false,
        reason: 'not-listed',
        text: `Sorry, you are not among the people who may request courses. Please ask ${who}.`,
      };
    }
    const role = await deps.roles.roleOf(client, userId);
    return { allowed: true, canDecide: permits(role, 'admin'), role };
  } catch (error) {
    if (error instanceof SlackBusyError) {
      return { allowed: false, reason: 'slack-busy', text: slackBusyText(error.retryAfterSec) };
    }
    deps.logger.error('requester check failed', { userId, error: String(error) });
    return {
      allowed: false,
      reason: 'not-member',
      text: `Sorry, I could not check who you are right now. Please try again, or ask ${who}.`,
    };
  }
}

/**
 * The role of `userId` against `need`. A failed check (other than Slack's rate limit) fails closed:
 * the role counts as 'none' and the failure is logged.
 */
export async function authorize(
  deps: Pick<AppDeps, 'roles' | 'logger'>,
  client: webApi.WebClient,
  userId: string,
  need: Need,
  /**
   * The slash command tells someone without any role "no access" whatever they asked for; a click on a
   * change button is told "admins only" (default).
   */
  options: { noRoleMeansNoAccess?: boolean } = {},
): Promise<Verdict> {
  let role: Role;
  try {
    role = await deps.roles.roleOf(client, userId);
  } catch (error) {
    if (error instanceof SlackBusyError) {
      return { allowed: false, reason: 'slack-busy', text: slackBusyText(error.retryAfterSec) };
    }
    deps.logger.error('role check failed', { userId, error: String(error) });
    role = 'none';
  }
  if (role !== 'none' && permits(role, need)) return { allowed: true, role, canChange: permits(role, 'admin') };
  // A change refused is told "admins only", whoever asks; a read refused, "no access".
  const reason = need === 'viewer' || (options.noRoleMeansNoAccess && role === 'none') ? 'no-access' : 'admins-only';
  return { allowed: false, reason, text: refusalText(deps, reason), role };
}
