/**
 * The one authorization gate. Every surface (command, button, form, shortcut, App Home) declares what
 * it needs, `viewer` or `admin`, and asks here once per request; this is the only place that compares
 * roles. The role is asked fresh (roles.ts caches Slack's answers briefly) and never read from a
 * payload. When Slack rate-limits the check, the verdict says so: the person may well be an admin, so
 * they are asked to try again, never told they have no access.
 *
 * Its Bolt side (second half of this file): one wrapper per surface kind (a click, a form submission,
 * the shortcut). Each asks `authorize` once per request with the need its listener declares, and on a
 * refusal does what that surface does: a click is told in a new ephemeral message (or by DM when it
 * has no response_url) and the attempt is audited; a submission's modal shows the refusal and the
 * attempt is audited; the shortcut opens a small refusal modal. When Slack was too busy to tell the
 * role, the person is asked to try again and nothing is audited.
 */

import type {
  AckFn,
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  GlobalShortcut,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewResponseAction,
  ViewSubmitAction,
  webApi,
} from '@slack/bolt';
import { buildErrorMessage, buildLockedMessage } from '../blocks/common.js';
import type { SlackMessage } from '../blocks/kit.js';
import { buildOutcomeModal } from '../blocks/outcome.js';
import type { AuditEntry } from '../domain/audit-entry.js';
import { EVERY_POOL, inScope, poolsScope, type Scope } from '../domain/scope.js';
import { withScope } from '../services/request-scope.js';
import type { AppDeps, Role } from './deps.js';
import { tellByDm } from './notices.js';
import { slackBusyText } from './present.js';
import { createReplier } from './reply.js';
import { SlackBusyError } from './roles.js';
import { markedAck, openView } from './slack-io.js';
import type { Surface } from './state.js';

/** What a surface needs: looking (viewers and admins) or changing licenses (admins). */
export type Need = 'viewer' | 'admin';

/**
 * What a subcommand needs: a role, (asking for a course) being someone who may request, or (one's own
 * licenses) being a full member of the workspace.
 */
export type CommandNeed = Need | 'requester' | 'member';

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
  | {
      allowed: true;
      role: Granted;
      canChange: boolean;
      /** The pools the role covers (every pool unless roles kept in the database narrow it). */
      scope: Scope;
    }
  | {
      allowed: false;
      reason: Refusal;
      /** One sentence for the person: what happened and whom to ask. */
      text: string;
      /** The role, when it is known ('slack-busy' leaves it unknown). */
      role?: Role;
    };

const RANK: Record<Role, number> = { none: 0, viewer: 1, admin: 2 };

/** The role a subcommand's need asks the gate for: a requester's own check happens apart (authorizeRequester). */
export function roleNeedOf(need: CommandNeed): Need {
  return need === 'requester' || need === 'member' ? 'viewer' : need;
}

/** The one comparison of roles in License Desk. */
export function permits(role: Role, need: Need): boolean {
  return RANK[role] >= RANK[need];
}

/** The sentences of a refusal, written once. */
export function refusalText(
  deps: Pick<AppDeps, 'roles'>,
  reason: Exclude<Refusal, 'slack-busy'>,
  who: string = deps.roles.whoToAsk(),
): string {
  return reason === 'no-access'
    ? `Sorry, you don't have access to License Desk. Please ask ${who} to add you.`
    : `Only license admins can change licenses. Please ask ${who} if you need to.`;
}

/**
 * Help for someone who may neither look nor ask for a course (a guest, or a member when requests are
 * off or leave them out): one sentence, naming whom to ask.
 */
export function nothingForYouText(deps: Pick<AppDeps, 'roles'>): string {
  return `Sorry, there is nothing you can do in License Desk yet: please ask ${deps.roles.whoToAsk()} if you need access or a course license.`;
}

/**
 * Is asking for a course open to `userId` here: requests set up, and REQUESTERS lets them in? Decides
 * whether a surface offers it (help, App Home); the request itself is checked again when made.
 */
export async function mayAskForCourse(
  deps: Pick<AppDeps, 'roles' | 'logger' | 'requests'>,
  client: webApi.WebClient,
  userId: string,
): Promise<boolean> {
  if (!deps.requests) return false;
  return (await authorizeRequester(deps, client, userId)).allowed;
}

type Deps = Pick<AppDeps, 'roles' | 'logger'>;

/**
 * A person's check: `refusal` says why `userId` may not (given whom to ask), or nothing; then their
 * role. Slack's failure fails closed (checkFailed).
 */
async function personVerdict(
  deps: Deps,
  client: webApi.WebClient,
  userId: string,
  what: string,
  refusal: (who: string) => Promise<RequesterVerdict | undefined>,
): Promise<RequesterVerdict> {
  try {
    const refused = await refusal(deps.roles.whoToAsk());
    if (refused) return refused;
    const role = await deps.roles.roleOf(client, userId);
    return { allowed: true, canDecide: permits(role, 'admin'), role };
  } catch (error) {
    return checkFailed(deps, error, what, userId);
  }
}

const refused = (reason: Extract<RequesterVerdict, { allowed: false }>['reason'], text: string): RequesterVerdict => ({
  allowed: false,
  reason,
  text,
});

/** May `userId` request a course? Asked fresh, never from a payload; fails closed like the roles. */
export function authorizeRequester(deps: Deps, client: webApi.WebClient, userId: string): Promise<RequesterVerdict> {
  return personVerdict(deps, client, userId, 'requester check failed', async (who) => {
    const may = deps.roles.mayRequest ? await deps.roles.mayRequest(client, userId) : 'off';
    if (may === 'off')
      return refused('requests-off', `Course requests are turned off here. Please ask ${who} for a license.`);
    if (may === 'not-member')
      return refused(
        'not-member',
        `Sorry, only full members of this workspace can request a course (not guests or bots). Please ask ${who}.`,
      );
    if (may === 'not-listed')
      return refused('not-listed', `Sorry, you are not among the people who may request courses. Please ask ${who}.`);
    return undefined;
  });
}

/** A requester's or member's check that Slack could not answer: busy (try again), or fail closed. */
function checkFailed(deps: Deps, error: unknown, what: string, userId: string): RequesterVerdict {
  if (error instanceof SlackBusyError) return refused('slack-busy', slackBusyText(error.retryAfterSec));
  deps.logger.error(what, { userId, error: String(error) });
  return refused(
    'not-member',
    `Sorry, I could not check who you are right now. Please try again, or ask ${deps.roles.whoToAsk()}.`,
  );
}

/**
 * May `userId` see and give back their own licenses: a full member (guests, bots and deactivated
 * accounts never, as for course requests; REQUESTERS plays no part)? Asked fresh; fails closed.
 */
export function authorizeMember(deps: Deps, client: webApi.WebClient, userId: string): Promise<RequesterVerdict> {
  return personVerdict(deps, client, userId, 'member check failed', async (who) => {
    const member = deps.roles.isMember ? await deps.roles.isMember(client, userId) : false;
    if (member) return undefined;
    return refused(
      'not-member',
      `Sorry, only full members of this workspace have licenses here (not guests or bots). Please ask ${who}.`,
    );
  });
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
  if (role !== 'none' && permits(role, need)) {
    try {
      return { allowed: true, role, canChange: permits(role, 'admin'), scope: await scopeOf(deps, client, userId) };
    } catch (error) {
      // scopeOf lets only Slack's rate limit through: the person may well have a role, so try again.
      const retryAfterSec = error instanceof SlackBusyError ? error.retryAfterSec : undefined;
      return { allowed: false, reason: 'slack-busy', text: slackBusyText(retryAfterSec) };
    }
  }
  // A change refused is told "admins only", whoever asks; a read refused, "no access".
  const reason = need === 'viewer' || (options.noRoleMeansNoAccess && role === 'none') ? 'no-access' : 'admins-only';
  return { allowed: false, reason, text: refusalText(deps, reason), role };
}

// The Bolt side: one wrapper per surface kind.

export type ClickArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;
/** A verdict that let the person through. */
export type Allowed = Extract<Verdict, { allowed: true }>;
export type Refused = Extract<Verdict, { allowed: false }>;

/** A refused attempt worth recording: which change, on what (a well-formed id only), and how asked. */
export interface RefusalAudit {
  action: AuditEntry['action'];
  /** What it was tried on; a course request's id is kept in the log and file, never shown. */
  target?: { licenseId?: string; poolId?: string; requestId?: string };
  /** Appended to "not a license admin", e.g. "(shortcut)". */
  via?: string;
}

/** That button no longer works (a forged or outdated value): said once, here. */
export const BUTTON_GONE = 'That button no longer works; please run /licenses again.';

async function auditRefusal(s: Surface, actor: string, verdict: Refused, audit: RefusalAudit | undefined) {
  if (!audit || verdict.reason === 'slack-busy') return;
  await s.state.audit.record({
    at: s.deps.now().toISOString(),
    actor,
    action: audit.action,
    outcome: 'refused',
    ...(audit.target ?? {}),
    detail: `not a license admin${audit.via ? ` ${audit.via}` : ''}`,
  });
}

/** The message a refused click is told: the gate's sentence, or try-again when Slack was busy. */
export function refusalMessage(verdict: Refused): SlackMessage {
  return verdict.reason === 'slack-busy' ? buildErrorMessage(verdict.text) : buildLockedMessage(verdict.text);
}

/** Tells the clicker in a new ephemeral message, or by DM when the click has no response_url (Home tab). */
export async function tellClicker(s: Surface, args: ClickArgs, message: SlackMessage): Promise<void> {
  if (args.body.response_url) return createReplier(args.respond, s.deps, true).send(message);
  await tellByDm(s.deps, args.client, args.body.user.id, message);
}

export interface ClickGate {
  need: Need;
  /** Which refused attempt to record, from the clicked button; none for a read. */
  audit?: (args: ClickArgs) => RefusalAudit;
  /** How a refusal is told; default: a new ephemeral message under the clicked one (tellClicker). */
  tell?: (args: ClickArgs, verdict: Refused) => Promise<void>;
  /**
   * A right the role does not give but the click may still carry (an accepted delegation for the
   * request's pool, docs/roles-and-approvals.md): asked only when the role refused (never when Slack
   * was busy); true lets the handler run.
   */
  orElse?: (args: ClickArgs) => Promise<boolean>;
}

/** What a click or submission let through by `orElse` is handled with: no role of its own. */
const THROUGH_DELEGATION: Allowed = { allowed: true, role: 'viewer', canChange: true, scope: EVERY_POOL };

/**
 * Runs the handler of a click or submission the gate lets through, in the person's scope. `orElse` (an
 * accepted delegation for the pool of what was clicked) lets through a person whose role refused, and a
 * pool admin whose scope may not hold the delegated pool: such a run is over every pool, since `orElse`
 * checked the one thing it acts on. False: nothing let it through.
 */
async function letThrough<A>(
  verdict: Verdict,
  orElse: ((args: A) => Promise<boolean>) | undefined,
  args: A,
  run: (granted: Allowed) => Promise<void>,
): Promise<boolean> {
  if (verdict.allowed && (verdict.scope.all || !orElse)) {
    await withScope(verdict.scope, () => run(verdict));
    return true;
  }
  if (!verdict.allowed && verdict.reason === 'slack-busy') return false;
  if (orElse && (await orElse(args))) {
    const granted = verdict.allowed ? { ...verdict, scope: EVERY_POOL } : THROUGH_DELEGATION;
    await withScope(EVERY_POOL, () => run(granted));
    return true;
  }
  if (!verdict.allowed) return false;
  await withScope(verdict.scope, () => run(verdict));
  return true;
}

/**
 * An "admins only" refusal about a pool the person may see (a viewer in that pool's scope) names that
 * pool's admins rather than the owners. Someone with no role, or a pool outside their scope, hears the
 * refusal as it was: naming a pool's admins to them would say who runs a pool they may not see.
 */
async function namingPoolAdmins(
  deps: Pick<AppDeps, 'roles' | 'logger'>,
  client: webApi.WebClient,
  userId: string,
  verdict: Refused,
  poolId: string | undefined,
): Promise<Refused> {
  if (verdict.reason !== 'admins-only' || !poolId || !deps.roles.whoToAskFor) return verdict;
  try {
    if (!inScope(await scopeOf(deps, client, userId), poolId)) return verdict;
    return { ...verdict, text: refusalText(deps, 'admins-only', await deps.roles.whoToAskFor(poolId)) };
  } catch {
    return verdict;
  }
}

/** A block_actions listener behind the gate: ack, authorize once, then the handler or the refusal. */
export function onClick(s: Surface, gate: ClickGate, handler: (args: ClickArgs, granted: Allowed) => Promise<void>) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const actor = args.body.user.id;
    const verdict = await authorize(s.deps, args.client, actor, gate.need);
    if ((await letThrough(verdict, gate.orElse, args, (granted) => handler(args, granted))) || verdict.allowed) return;
    const audit = gate.audit?.(args);
    const refused = await namingPoolAdmins(s.deps, args.client, actor, verdict, audit?.target?.poolId);
    await (gate.tell ? gate.tell(args, refused) : tellClicker(s, args, refusalMessage(refused)));
    await auditRefusal(s, actor, refused, audit);
  };
}

export type MarkedSubmitArgs = Omit<SubmitArgs, 'ack'> & { ack: AckFn<ViewResponseAction> };

export interface SubmitGate {
  need: Need;
  /** The modal's title for the refusal view. */
  title: string;
  audit?: RefusalAudit;
  /** A surface's own refusal sentence instead of the gate's. */
  text?: string;
  /** How the refusal replaces the modal; default an outcome view under `title`. */
  view?: (sentence: string, busy: boolean) => Parameters<AckFn<ViewResponseAction>>[0];
  /** As ClickGate's: a right the role does not give (an accepted delegation), asked when the role refused. */
  orElse?: (args: SubmitArgs) => Promise<boolean>;
}

/** A view_submission listener behind the gate; its ack carries the sandbox marker (markedAck). */
export function onSubmit(
  s: Surface,
  gate: SubmitGate,
  handler: (args: MarkedSubmitArgs, granted: Allowed) => Promise<void>,
) {
  return async (raw: SubmitArgs): Promise<void> => {
    const args: MarkedSubmitArgs = { ...raw, ack: markedAck(s.deps, raw.ack) };
    const actor = raw.body.user.id;
    const verdict = await authorize(s.deps, raw.client, actor, gate.need);
    if ((await letThrough(verdict, gate.orElse, raw, (granted) => handler(args, granted))) || verdict.allowed) return;
    const busy = verdict.reason === 'slack-busy';
    const sentence = busy || !gate.text ? verdict.text : gate.text;
    await args.ack(
      gate.view
        ? gate.view(sentence, busy)
        : {
            response_action: 'update',
            view: buildOutcomeModal({ title: gate.title, tone: busy ? 'failed' : 'refused', headline: sentence }),
          },
    );
    await auditRefusal(s, actor, verdict, gate.audit);
  };
}

/** A global shortcut behind the gate: a refusal is a small modal of its own (no channel, no response_url). */
export function onShortcut(
  s: Surface,
  gate: { need: Need; title: string; audit?: RefusalAudit },
  handler: (args: ShortcutArgs, granted: Allowed) => Promise<void>,
) {
  return async (args: ShortcutArgs): Promise<void> => {
    await args.ack();
    const actor = args.shortcut.user.id;
    const verdict = await authorize(s.deps, args.client, actor, gate.need);
    if (verdict.allowed) return withScope(verdict.scope, () => handler(args, verdict));
    const tone = verdict.reason === 'slack-busy' ? 'failed' : 'refused';
    await openView(
      s.deps,
      args.client,
      args.shortcut.trigger_id,
      buildOutcomeModal({ title: gate.title, tone, headline: verdict.text }),
    );
    await auditRefusal(s, actor, verdict, gate.audit);
  };
}

/**
 * The pools `userId`'s role covers: every pool unless roles kept in the database narrow it. Asked fresh
 * on every request, like the role; a failed check narrows to no pool at all (fail closed).
 */
export async function scopeOf(
  deps: Pick<AppDeps, 'roles' | 'logger'>,
  client: webApi.WebClient,
  userId: string,
): Promise<Scope> {
  if (!deps.roles.scopeOf) return EVERY_POOL;
  try {
    return await deps.roles.scopeOf(client, userId);
  } catch (error) {
    if (error instanceof SlackBusyError) throw error;
    deps.logger.error('scope check failed', { userId, error: String(error) });
    return poolsScope([]);
  }
}

/** Who decides for `poolId`: its admins, else the owners (the roles' own fallback). */
export async function approversOf(
  deps: Pick<AppDeps, 'roles'>,
  client: webApi.WebClient,
  poolId: string,
): Promise<string[]> {
  if (deps.roles.approversOf) return deps.roles.approversOf(client, poolId);
  return deps.roles.adminRecipients ? deps.roles.adminRecipients(client) : [...(deps.roles.adminUsers?.() ?? [])];
}
