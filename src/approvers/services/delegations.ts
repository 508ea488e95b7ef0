/**
 * An approver's away delegation (docs/roles-and-approvals.md, "Away and delegates"): set it (in force
 * at once when the delegate's own role covers the approver's pools, else waiting for an owner's yes),
 * an owner's Approve or Refuse, and ending it early. Each change and what it tells people happen in
 * one transaction (the outbox); each is audited. Who may do what (owner, approver) and whether the
 * delegate's role covers the pools are asked by the Slack layer and arrive here as facts.
 */
import { randomUUID } from 'node:crypto';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { Outbox, OutboxSender } from '../../kernel/services/outbox.js';
import type { ApproverStore } from '../db/store.js';
import {
  type ApproverNotice,
  type Delegation,
  type DelegationField,
  type DelegationInput,
  dayOf,
  delegationProblem,
} from '../domain/delegation.js';

export interface DelegationDeps {
  store: ApproverStore;
  outbox: Outbox & Pick<OutboxSender, 'kick'>;
  audit: (entry: AuditEntry) => Promise<void>;
  now: () => Date;
}

export type SetOutcome =
  | { kind: 'refused'; field: DelegationField; text: string }
  | { kind: 'set'; delegation: Delegation };

const facts = (d: Delegation) => ({ delegate: d.delegate, fromDay: d.fromDay, untilDay: d.untilDay });

/**
 * Sets the approver's delegation (the one live before it ends): `covered` when the delegate's own
 * admin role covers the approver's pools, or when an owner sets it (their word is the owner's yes).
 */
export async function setDelegation(x: DelegationDeps, input: DelegationInput, covered: boolean): Promise<SetOutcome> {
  const now = x.now();
  const problem = delegationProblem(input, dayOf(now));
  if (problem) return { kind: 'refused', ...problem };
  const at = now.toISOString();
  const d: Delegation = {
    id: randomUUID(),
    approver: input.approver,
    delegate: input.delegate as string,
    fromDay: input.fromDay as string,
    untilDay: input.untilDay as string,
    state: covered ? 'active' : 'waiting',
    createdAt: at,
  };
  await x.store.transaction(async (tx) => {
    for (const old of await tx.liveOf(d.approver, dayOf(now))) {
      await tx.move(old.id, ['waiting', 'active'], 'ended', d.approver, at);
    }
    await tx.add(d);
    const notice: ApproverNotice = covered
      ? { kind: 'delegation-decided', delegationId: d.id, state: 'active' }
      : { kind: 'delegation-asked', delegationId: d.id };
    await x.outbox.enqueue(tx.handle, notice, `delegation:${d.id}:${covered ? 'active' : 'asked'}`);
  });
  x.outbox.kick();
  await x.audit({
    at,
    actor: d.approver,
    action: 'delegated',
    outcome: 'done',
    ...facts(d),
    ...(covered ? {} : { detail: 'waiting' }),
  });
  return { kind: 'set', delegation: d };
}

export type DecideOutcome =
  | { kind: 'decided'; delegation: Delegation }
  | { kind: 'not-found' }
  | { kind: 'already'; delegation: Delegation };

/** An owner's Approve or Refuse of a waiting delegation: the first click wins; the approver is told. */
export async function decideDelegation(
  x: DelegationDeps,
  id: string,
  owner: string,
  accept: boolean,
): Promise<DecideOutcome> {
  const d = await x.store.get(id);
  if (!d) return { kind: 'not-found' };
  const state = accept ? 'active' : 'refused';
  const at = x.now().toISOString();
  const moved = await x.store.transaction(async (tx) => {
    if (!(await tx.move(id, ['waiting'], state, owner, at))) return false;
    await x.outbox.enqueue(
      tx.handle,
      { kind: 'delegation-decided', delegationId: id, state },
      `delegation:${id}:${state}`,
    );
    return true;
  });
  const now = (await x.store.get(id)) ?? d;
  if (!moved) return { kind: 'already', delegation: now };
  x.outbox.kick();
  await x.audit({
    at,
    actor: owner,
    action: 'delegated',
    outcome: 'done',
    onBehalfOf: d.approver,
    ...facts(d),
    detail: accept ? 'accepted' : 'refused',
  });
  return { kind: 'decided', delegation: now };
}

/** "End it now": by its approver or an owner (the Slack layer checks who); nothing when it ended already. */
export async function endDelegation(x: DelegationDeps, id: string, by: string): Promise<DecideOutcome> {
  const d = await x.store.get(id);
  if (!d) return { kind: 'not-found' };
  const at = x.now().toISOString();
  if (!(await x.store.move(id, ['waiting', 'active'], 'ended', by, at))) return { kind: 'already', delegation: d };
  await x.audit({
    at,
    actor: by,
    action: 'delegated',
    outcome: 'done',
    ...(by === d.approver ? {} : { onBehalfOf: d.approver }),
    ...facts(d),
    detail: 'ended',
  });
  return { kind: 'decided', delegation: { ...d, state: 'ended', endedAt: at } };
}
