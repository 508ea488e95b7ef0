/**
 * Who gets a pool's card now (docs/roles-and-approvals.md, "Who approves"): the one place that
 * decides it, for course requests and asks for more time alike. The pool's approvers (the gate's
 * approversOf: its admins, else the owners), an approver away replaced by their delegate, whoever
 * chose the daily list left out of the cards. With REQUESTS_CHANNEL the card goes to the channel,
 * naming whom it is for when that is not simply the owners. When the records cannot be read, the
 * cards go to the approvers themselves: a card is never lost to a delegation.
 */
import type { webApi } from '@slack/bolt';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { approversOf } from '../../kernel/slack/gate.js';
import { channelLine, delegateLine } from '../blocks/approvers.js';
import { createApproverStore } from '../db/store.js';
import { dayOf, type Route, routeCards, standsInFor } from '../domain/delegation.js';

type RouteDeps = Pick<AppDeps, 'roles' | 'logger' | 'records' | 'now'>;

/** The owners: the users of LICENSE_ADMINS and the members of its user groups. */
export async function ownersOf(deps: Pick<AppDeps, 'roles'>, client: webApi.WebClient): Promise<string[]> {
  return deps.roles.adminRecipients ? deps.roles.adminRecipients(client) : [...(deps.roles.adminUsers?.() ?? [])];
}

/** Who gets this pool's card now (a card each, or the daily list). */
export async function routeFor(
  deps: RouteDeps,
  client: webApi.WebClient,
  poolId: string,
  requester?: string,
): Promise<Route> {
  const approvers = [...new Set(await approversOf(deps, client, poolId))];
  if (!deps.records) return { cards: approvers.map((user) => ({ user })), daily: [] };
  try {
    const store = createApproverStore(deps.records);
    const today = dayOf(deps.now());
    const delegations = await store.inForceFrom(approvers, today);
    const people = new Set([...approvers, ...delegations.map((d) => d.delegate)]);
    const daily = new Set<string>();
    for (const user of people) if (await store.dailyList(user)) daily.add(user);
    return routeCards(approvers, delegations, daily, today, requester);
  } catch (error) {
    deps.logger.warn('could not read the delegations; the cards go to the approvers', { error: String(error) });
    return { cards: approvers.map((user) => ({ user })), daily: [] };
  }
}

/** Where one copy of a card goes (a channel, or a person's DM by user id), and the line it carries. */
export interface CardTarget {
  target: string;
  line?: string;
}

/**
 * Where a pool's cards go: REQUESTS_CHANNEL (naming whom it is for, unless that is just the owners),
 * else each person of the route by DM (a delegate's card says for whom). A warning names `about`
 * when nobody gets one.
 */
export async function cardTargets(
  client: webApi.WebClient,
  deps: RouteDeps,
  channel: string | undefined,
  poolId: string,
  about: Record<string, string>,
  requester?: string,
): Promise<CardTarget[]> {
  const route = await routeFor(deps, client, poolId, requester);
  if (channel) {
    const owners = new Set(await ownersOf(deps, client));
    const plain = route.cards.every((c) => !c.for && owners.has(c.user)) && route.cards.length === owners.size;
    const line = plain ? undefined : channelLine(route.cards);
    return [{ target: channel, ...(line ? { line } : {}) }];
  }
  const targets = route.cards.map((c) => {
    const line = delegateLine(c);
    return { target: c.user, ...(line ? { line } : {}) };
  });
  if (targets.length === 0 && route.daily.length === 0) {
    deps.logger.warn(
      'nobody to send a request card to; set REQUESTS_CHANNEL or list users or user groups in LICENSE_ADMINS',
      about,
    );
  }
  return targets;
}

/**
 * Whom `user` decides for on this pool: an approver of it who is away and delegated to them (accepted,
 * today within its days), or undefined (an approver in their own right, or no delegation).
 */
export async function decidesFor(
  deps: RouteDeps,
  client: webApi.WebClient,
  user: string,
  poolId: string,
): Promise<string | undefined> {
  if (!deps.records) return undefined;
  const today = dayOf(deps.now());
  const delegations = await createApproverStore(deps.records).inForceTo(user, today);
  if (delegations.length === 0) return undefined;
  return standsInFor(user, await approversOf(deps, client, poolId), delegations, today);
}
