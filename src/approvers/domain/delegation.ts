/**
 * Who approves (docs/roles-and-approvals.md): an approver's away delegation, the rules of setting one,
 * and who gets a pool's card now. Pure: days and the clock are parameters.
 *
 * A delegation covers the days `fromDay` to `untilDay` (YYYY-MM-DD, both included, in UTC). It is in
 * force on those days once it is `active`: at once when the delegate holds an admin role covering the
 * approver's pools, else after an owner's yes (`waiting` until then). It ends by itself after its last
 * day (read by date: no job needed), or earlier when its approver (or an owner) ends it.
 */

export type DelegationState = 'waiting' | 'active' | 'refused' | 'ended';

export interface Delegation {
  id: string;
  approver: string;
  delegate: string;
  fromDay: string;
  untilDay: string;
  state: DelegationState;
  createdAt: string;
  /** The owner who accepted or refused it. */
  decidedBy?: string;
  endedAt?: string;
}

/** The longest absence one delegation covers. */
export const MAX_DELEGATION_DAYS = 366;

/** The UTC day (YYYY-MM-DD) of `now`: the day delegations are read by. */
export function dayOf(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** In force today: accepted, and today within its days. */
export function inForce(d: Delegation, today: string): boolean {
  return d.state === 'active' && d.fromDay <= today && today <= d.untilDay;
}

/** Still to come or running (shown on App Home with "End it now"): accepted or waiting, not past its end. */
export function live(d: Delegation, today: string): boolean {
  return (d.state === 'active' || d.state === 'waiting') && today <= d.untilDay;
}

export interface DelegationInput {
  approver: string;
  delegate: string | undefined;
  fromDay: string | undefined;
  untilDay: string | undefined;
}

/** Which input of the form a problem is about. */
export type DelegationField = 'delegate' | 'from' | 'until';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

const daysBetween = (a: string, b: string) =>
  (Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000;

/** What is wrong with a delegation as asked, in one sentence, and where; undefined when it may be made. */
export function delegationProblem(
  input: DelegationInput,
  today: string,
): { field: DelegationField; text: string } | undefined {
  const { delegate, fromDay, untilDay } = input;
  if (!delegate) return { field: 'delegate', text: 'Pick the person your approvals go to while you are away.' };
  if (delegate === input.approver) {
    return { field: 'delegate', text: 'You cannot delegate your approvals to yourself: pick someone else.' };
  }
  if (!fromDay || !DAY.test(fromDay)) return { field: 'from', text: 'Pick the first day you are away.' };
  if (!untilDay || !DAY.test(untilDay)) return { field: 'until', text: 'Pick the last day you are away.' };
  if (untilDay < fromDay) {
    return { field: 'until', text: 'The last day is before the first: pick an end on or after the start.' };
  }
  if (untilDay < today) return { field: 'until', text: 'That absence is over already: pick a last day from today on.' };
  if (daysBetween(fromDay, untilDay) >= MAX_DELEGATION_DAYS) {
    return { field: 'until', text: 'One delegation covers a year at most: pick an earlier last day.' };
  }
  return undefined;
}

/** One card of a pool: to whom, and the approver they stand in for (a delegate). */
export interface CardTo {
  user: string;
  for?: string;
}

/** Who gets a pool's card now: a card each, and those who chose the daily list instead. */
export interface Route {
  cards: CardTo[];
  daily: string[];
}

/**
 * Who gets this pool's card now, from its approvers (the pool's admins, else the owners): an approver
 * away hands it to their delegate, unless the delegate is the requester (it stays with the approver);
 * whoever chose the daily list gets no card, only the list. Each person once; an approver of the pool
 * in their own right is never "for" someone else.
 */
export function routeCards(
  approvers: readonly string[],
  delegations: readonly Delegation[],
  dailyList: ReadonlySet<string>,
  today: string,
  requester?: string,
): Route {
  const own = new Set(approvers);
  const seen = new Set<string>();
  const route: Route = { cards: [], daily: [] };
  for (const approver of approvers) {
    const d = delegations.find((x) => x.approver === approver && inForce(x, today) && x.delegate !== requester);
    const user = d ? d.delegate : approver;
    if (seen.has(user)) continue;
    seen.add(user);
    if (dailyList.has(user)) route.daily.push(user);
    else route.cards.push(d && !own.has(user) ? { user, for: approver } : { user });
  }
  return route;
}

/** Whom `user` decides for on a pool with these approvers: an approver away who delegated to them, if any. */
export function standsInFor(
  user: string,
  approvers: readonly string[],
  delegations: readonly Delegation[],
  today: string,
): string | undefined {
  if (approvers.includes(user)) return undefined;
  return delegations.find((d) => d.delegate === user && approvers.includes(d.approver) && inForce(d, today))?.approver;
}

/** One request waiting for a decision, as the daily list shows it. */
export interface WaitingItem {
  requestId: string;
  poolId: string;
  requester: string;
  courseTitle: string;
  createdAt: string;
}

/** What the approvers feature tells people (the outbox words it at send time). */
export type ApproverNotice =
  /** A delegation to someone without a role on those pools: a card to each owner, Approve / Refuse. */
  | { kind: 'delegation-asked'; delegationId: string }
  /** An owner accepted or refused it, or it was set: the approver (and the delegate when it is in force) by DM. */
  | { kind: 'delegation-decided'; delegationId: string; state: 'active' | 'refused' }
  /** The daily "waiting for you" list of one approver. */
  | { kind: 'approver-daily-list'; user: string; day: string; items: WaitingItem[] };

export const APPROVER_NOTICE_KINDS = ['delegation-asked', 'delegation-decided', 'approver-daily-list'] as const;
