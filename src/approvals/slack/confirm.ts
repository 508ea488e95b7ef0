/**
 * Approve selected and Deny selected: the click reads the page's ticks into the selection and pushes
 * the one confirmation (loading first: the trigger_id lives 3 s), which states the count and what
 * happens in each pool with fewer free seats than requests; Deny selected asks for one reason. The
 * submit asks the gate (admins) and the admin's pools afresh: a selection naming a request outside
 * them is refused whole and nothing changes. Then the decisions run in the background (runs.ts).
 */
import type { webApi } from '@slack/bolt';
import { ApprovalsInputId } from '../../kernel/blocks/ids.js';
import { escapeMrkdwn } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type ClickArgs, type MarkedSubmitArgs, onClick, onSubmit, scopeOf } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import { updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { reasonProblem } from '../../requests/index.js';
import {
  buildConfirmApproveModal,
  buildConfirmDenyModal,
  CONFIRM_TITLE,
  DENY_MANY_TITLE,
  startedText,
} from '../blocks/confirm.js';
import { buildApprovalsInfoModal, buildApprovalsLoadingModal, outsideScopeText } from '../blocks/list.js';
import { planPools } from '../domain/plan.js';
import { decodeSelection } from '../domain/selection.js';
import { checkSelection, freeSeats } from '../services/waiting.js';
import { droppedNote, LIST_GONE, listView, selectionOf } from './list.js';
import { NOT_SET_UP, portsOf } from './ports.js';
import type { Runs } from './runs.js';

/** Pushes a loading view over the list; its id, or undefined when Slack would not push it. */
async function push(deps: AppDeps, client: webApi.WebClient, triggerId: string, what: string) {
  try {
    const res = await client.views.push({ trigger_id: triggerId, view: buildApprovalsLoadingModal(what) });
    return res.view?.id;
  } catch (error) {
    deps.logger.warn('views.push failed', { error: String(error) });
    return undefined;
  }
}

/** The list again with one line on top, its ticks kept. */
async function noteOnList(s: Surface, args: ClickArgs, ids: string[], page: number, note: string) {
  const view = args.body.view;
  if (!view) return;
  const shown = await listView(s.deps, args.client, args.body.user.id, { page, ids }, note);
  await updateView(s.deps, args.client, view.id, shown);
}

export function createSelectedHandler(s: Surface, kind: 'approve' | 'deny') {
  return onClick(
    s,
    { need: 'admin', audit: () => ({ action: kind === 'approve' ? 'approved' : 'denied' }) },
    async (args) => {
      const view = args.body.view;
      const selection = selectionOf(view);
      if (!view) return;
      if (!selection) return void (await updateView(s.deps, args.client, view.id, buildApprovalsInfoModal(LIST_GONE)));
      const { ids, page } = selection;
      if (ids.length === 0) return noteOnList(s, args, ids, page, ':point_down: Tick at least one request first.');
      const dropped = droppedNote(selection.dropped);
      if (dropped) return noteOnList(s, args, ids, page, dropped);
      const what = kind === 'approve' ? 'Counting the free seats' : 'Opening the form';
      const pushed = await push(s.deps, args.client, args.body.trigger_id, what);
      if (!pushed)
        return noteOnList(s, args, ids, page, ':x: Slack would not open the confirmation; please try again.');
      const confirm =
        kind === 'approve'
          ? await confirmApprove(s.deps, args.client, args.body.user.id, ids)
          : buildConfirmDenyModal(ids);
      await updateView(s.deps, args.client, pushed, confirm);
    },
  );
}

/** The approval's confirmation: the selection read afresh, the free seats of its pools in one read. */
async function confirmApprove(deps: AppDeps, client: webApi.WebClient, userId: string, ids: string[]) {
  const ports = portsOf(deps);
  if (!ports) return buildApprovalsInfoModal(`:information_source: ${escapeMrkdwn(NOT_SET_UP)}`, CONFIRM_TITLE);
  try {
    const checked = await checkSelection(ports, ids, await scopeOf(deps, client, userId));
    if (checked.kind === 'outside-scope')
      return buildApprovalsInfoModal(outsideScopeText(checked.count), CONFIRM_TITLE);
    const waiting = checked.requests.filter((r) => r.status === 'pending');
    const free = await freeSeats(ports, new Set(waiting.map((r) => r.poolId)));
    return buildConfirmApproveModal({
      ids,
      plans: planPools(waiting, free),
      waitlist: deps.waitlist !== undefined,
      skipped: ids.length - waiting.length,
    });
  } catch (error) {
    return buildApprovalsInfoModal(`:warning: ${escapeMrkdwn(presentError(error, 'other', 'admin'))}`, CONFIRM_TITLE);
  }
}

function reasonOf(args: MarkedSubmitArgs): string | undefined {
  const { block, action } = ApprovalsInputId.denyReason;
  return args.view.state.values[block]?.[action]?.value?.trim() || undefined;
}

/** The confirmation's submit (Approve N, or Deny N with its reason): checked afresh, then run in the background. */
export function createConfirmSubmitHandler(s: Surface, runs: Runs, kind: 'approve' | 'deny') {
  const title = kind === 'approve' ? CONFIRM_TITLE : DENY_MANY_TITLE;
  const action = kind === 'approve' ? 'approved' : 'denied';
  return onSubmit(s, { need: 'admin', title, audit: { action, via: '(approvals)' } }, async (args) => {
    const show = (text: string) =>
      args.ack({ response_action: 'update', view: { ...buildApprovalsInfoModal(text, title), clear_on_close: true } });
    const reason = kind === 'deny' ? reasonOf(args) : undefined;
    if (kind === 'deny') {
      const problem = reason ? reasonProblem(reason) : 'Please give a reason: each requester is told it.';
      if (problem)
        return args.ack({ response_action: 'errors', errors: { [ApprovalsInputId.denyReason.block]: problem } });
    }
    const selection = decodeSelection(args.view.private_metadata);
    const ports = portsOf(s.deps);
    if (!ports) return show(`:information_source: ${escapeMrkdwn(NOT_SET_UP)}`);
    if (!selection || selection.ids.length === 0) return show(LIST_GONE);
    const user = args.body.user.id;
    let checked: Awaited<ReturnType<typeof checkSelection>>;
    try {
      checked = await checkSelection(ports, selection.ids, await scopeOf(s.deps, args.client, user));
    } catch (error) {
      // Slack too busy to tell the admin's pools: nothing decided, try again.
      return show(`:warning: ${escapeMrkdwn(presentError(error, 'other', 'admin'))}`);
    }
    if (checked.kind === 'outside-scope') {
      await show(outsideScopeText(checked.count));
      await s.state.audit.record({
        at: s.deps.now().toISOString(),
        actor: user,
        action,
        outcome: 'refused',
        detail: `${count(checked.count, 'selected request')} outside the admin's pools (approvals)`,
      });
      return;
    }
    await show(startedText(kind, selection.ids.length));
    const { requests, gone } = checked;
    void runs
      .start(s.deps, args.client, ports, { kind, requests, gone, actor: user, ...(reason ? { reason } : {}) })
      .catch((error: unknown) => s.deps.logger.error('approvals: a bulk decision failed', { error: String(error) }));
  });
}
