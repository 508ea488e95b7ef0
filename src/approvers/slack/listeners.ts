/**
 * The approvers' buttons and form (docs/roles-and-approvals.md): App Home's "Set an away delegate…"
 * (the form: from, until, to whom), "End it now", the daily list on or off, and the owners' Approve /
 * Refuse of a delegation waiting for their yes. Setting a delegation needs a license admin; a
 * delegate's own role is asked through the gate (authorize, scopeOf): without an admin role covering
 * the approver's pools, the delegation waits for an owner's yes. Every refusal is one sentence, and a
 * refused click on the owners' card or on "End it now" is audited.
 */
import type { App, BlockAction, ButtonAction, ViewSubmitAction } from '@slack/bolt';
import { buildErrorMessage, buildLockedMessage } from '../../kernel/blocks/common.js';
import { ApproverActionId, ApproverCallbackId, ApproverInputId } from '../../kernel/blocks/ids.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { authorize, type ClickArgs, onClick, onSubmit, scopeOf, tellClicker } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { openView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { APPROVER_WORDS, buildAwayModal, buildDelegationAskMessage } from '../blocks/approvers.js';
import { createApproverStore } from '../db/store.js';
import { dayOf } from '../domain/delegation.js';
import { type DelegationDeps, decideDelegation, endDelegation, setDelegation } from '../services/delegations.js';
import { ownersOf } from './route.js';

/** Publishes App Home again for a person (the composition root gives App Home's own, with its sections). */
export type RefreshHome = (deps: AppDeps, client: ClickArgs['client'], userId: string) => Promise<void>;

type Client = ClickArgs['client'];

/** The owners: LICENSE_ADMINS' users and the members of its groups. */
export async function isOwner(deps: AppDeps, client: Client, user: string): Promise<boolean> {
  return (await ownersOf(deps, client)).includes(user);
}

/** Does the delegate's own admin role cover every pool the approver's does? */
async function delegateCovers(deps: AppDeps, client: Client, delegate: string, approver: string): Promise<boolean> {
  const verdict = await authorize(deps, client, delegate, 'admin');
  if (!verdict.allowed) return false;
  const [theirs, mine] = [await scopeOf(deps, client, delegate), await scopeOf(deps, client, approver)];
  if (theirs.all) return true;
  if (mine.all) return false;
  return [...mine.poolIds].every((p) => theirs.poolIds.has(p));
}

function delegationDeps(s: Surface): DelegationDeps | undefined {
  const { records, outbox } = s.deps;
  if (!records || !outbox) return undefined;
  return {
    store: createApproverStore(records),
    outbox,
    audit: (entry) => s.state.audit.record(entry),
    now: s.deps.now,
  };
}

const NOT_KEPT = buildErrorMessage('Delegations are not kept in this process.');

async function auditRefused(s: Surface, actor: string, detail: string, more: Partial<AuditEntry> = {}) {
  await s.state.audit.record({
    at: s.deps.now().toISOString(),
    actor,
    action: 'delegated',
    outcome: 'refused',
    ...more,
    detail,
  });
}

/** "Set an away delegate…": the form, for license admins. */
function createOpenHandler(s: Surface) {
  return onClick(s, { need: 'admin' }, async (args) => {
    await openView(s.deps, args.client, args.body.trigger_id, buildAwayModal(dayOf(s.deps.now())));
  });
}

/** The form's submission: the dates and the delegate checked, then in force or waiting for an owner's yes. */
function createSubmitHandler(s: Surface, refreshHome: RefreshHome) {
  return onSubmit(
    s,
    { need: 'admin', title: 'Away and delegates', text: APPROVER_WORDS.approversOnly, audit: { action: 'delegated' } },
    async ({ ack, view, body, client }) => {
      const x = delegationDeps(s);
      const values = view.state.values;
      const approver = body.user.id;
      const delegate = values[ApproverInputId.delegate.block]?.[ApproverInputId.delegate.action]?.selected_user;
      const fromDay = values[ApproverInputId.from.block]?.[ApproverInputId.from.action]?.selected_date;
      const untilDay = values[ApproverInputId.until.block]?.[ApproverInputId.until.action]?.selected_date;
      const errors = (block: string, text: string) => ack({ response_action: 'errors', errors: { [block]: text } });
      if (!x) return errors(ApproverInputId.delegate.block, 'Delegations are not kept in this process.');
      if (delegate && delegate !== approver && !(await s.deps.roles.isMember?.(client, delegate))) {
        return errors(ApproverInputId.delegate.block, APPROVER_WORDS.notMember);
      }
      const covered =
        !!delegate &&
        delegate !== approver &&
        ((await isOwner(s.deps, client, approver)) || (await delegateCovers(s.deps, client, delegate, approver)));
      const outcome = await setDelegation(
        x,
        { approver, delegate: delegate ?? undefined, fromDay: fromDay ?? undefined, untilDay: untilDay ?? undefined },
        covered,
      );
      if (outcome.kind === 'refused') {
        const block = { delegate: ApproverInputId.delegate, from: ApproverInputId.from, until: ApproverInputId.until }[
          outcome.field
        ].block;
        return errors(block, outcome.text);
      }
      await ack();
      await refreshHome(s.deps, client, approver);
    },
  );
}

/** "End it now": its approver or an owner; App Home shows it gone. */
function createEndHandler(s: Surface, refreshHome: RefreshHome) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const x = delegationDeps(s);
    if (!x) return tellClicker(s, args, NOT_KEPT);
    const user = args.body.user.id;
    const d = await x.store.get(args.action.value ?? '');
    if (!d) return tellClicker(s, args, buildErrorMessage(APPROVER_WORDS.gone));
    if (d.approver !== user && !(await isOwner(s.deps, args.client, user))) {
      await tellClicker(s, args, buildLockedMessage(APPROVER_WORDS.notYours));
      return auditRefused(s, user, 'not its approver nor an owner', { onBehalfOf: d.approver, delegate: d.delegate });
    }
    await endDelegation(x, d.id, user);
    await refreshHome(s.deps, args.client, user);
  };
}

/** The daily list on or off, for license admins. */
function createDailyListHandler(s: Surface, refreshHome: RefreshHome) {
  return onClick(s, { need: 'admin' }, async (args) => {
    const x = delegationDeps(s);
    if (!x) return tellClicker(s, args, NOT_KEPT);
    await x.store.setDailyList(args.body.user.id, args.action.value === 'on', s.deps.now().toISOString());
    await refreshHome(s.deps, args.client, args.body.user.id);
  });
}

/** The owners' Approve / Refuse: owners only; the first click wins; the card shows the outcome. */
function createDecideHandler(s: Surface, accept: boolean) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const x = delegationDeps(s);
    if (!x) return tellClicker(s, args, NOT_KEPT);
    const user = args.body.user.id;
    const id = args.action.value ?? '';
    if (!(await isOwner(s.deps, args.client, user))) {
      await tellClicker(s, args, buildLockedMessage(APPROVER_WORDS.ownersOnly));
      return auditRefused(s, user, 'not an owner');
    }
    const outcome = await decideDelegation(x, id, user, accept);
    if (outcome.kind === 'not-found') return tellClicker(s, args, buildErrorMessage(APPROVER_WORDS.gone));
    if (outcome.kind === 'already') return tellClicker(s, args, buildErrorMessage(APPROVER_WORDS.alreadyDecided));
    await replaceCard(s, args, buildDelegationAskMessage(outcome.delegation));
  };
}

async function replaceCard(s: Surface, args: ClickArgs, message: SlackMessage): Promise<void> {
  if (!args.body.response_url) return tellClicker(s, args, message);
  await createReplier(args.respond, s.deps, false).send(message);
}

export function registerApprovers(app: App, s: Surface, refreshHome: RefreshHome): void {
  app.action<BlockAction<ButtonAction>>(ApproverActionId.awayOpen, createOpenHandler(s));
  app.action<BlockAction<ButtonAction>>(ApproverActionId.awayEnd, createEndHandler(s, refreshHome));
  app.action<BlockAction<ButtonAction>>(ApproverActionId.dailyList, createDailyListHandler(s, refreshHome));
  app.action<BlockAction<ButtonAction>>(ApproverActionId.accept, createDecideHandler(s, true));
  app.action<BlockAction<ButtonAction>>(ApproverActionId.refuse, createDecideHandler(s, false));
  app.view<ViewSubmitAction>(ApproverCallbackId.awayForm, createSubmitHandler(s, refreshHome));
}
