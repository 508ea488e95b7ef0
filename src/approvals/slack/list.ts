/**
 * The list of `/licenses approvals` in a modal: opened with a loading view at once (the trigger_id
 * lives 3 s; the command was acked before), then the first page; Previous / Next read the page's
 * ticks into the selection (private_metadata) and show the other page, read afresh.
 */
import type { webApi } from '@slack/bolt';
import { escapeMrkdwn } from '../../kernel/blocks/mrkdwn.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { type ClickArgs, onClick, scopeOf } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import { openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { buildApprovalsInfoModal, buildApprovalsListModal, buildApprovalsLoadingModal } from '../blocks/list.js';
import { clampPage, decodeSelection, MAX_SELECTED, mergePage, type Selection } from '../domain/selection.js';
import { waitingIn } from '../services/waiting.js';
import { NOT_SET_UP, portsOf } from './ports.js';

/** The list's view for `userId`: their pools' waiting requests read afresh, the page within the pages there are. */
export async function listView(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  selection: Selection,
  note?: string,
) {
  const ports = portsOf(deps);
  if (!ports) return buildApprovalsInfoModal(`:information_source: ${escapeMrkdwn(NOT_SET_UP)}`);
  try {
    const scope = await scopeOf(deps, client, userId);
    const { requests, free } = await waitingIn(ports, scope);
    const page = clampPage(selection.page, requests.length);
    return buildApprovalsListModal({ requests, free, selection: { ...selection, page }, ...(note ? { note } : {}) });
  } catch (error) {
    deps.logger.warn('approvals: the list could not be read', { error: String(error) });
    return buildApprovalsInfoModal(`:warning: ${escapeMrkdwn(presentError(error, 'other', 'admin'))}`);
  }
}

/** Opens the modal (loading first) and shows the first page; false when Slack would not open it. */
export async function openApprovals(
  deps: AppDeps,
  client: webApi.WebClient,
  triggerId: string,
  userId: string,
): Promise<boolean> {
  const viewId = await openView(deps, client, triggerId, buildApprovalsLoadingModal('Reading the requests waiting'));
  if (!viewId) return false;
  await updateView(deps, client, viewId, await listView(deps, client, userId, { page: 0, ids: [] }));
  return true;
}

type ViewOf = NonNullable<ClickArgs['body']['view']>;

/** The ids of the requests shown on a list view (its checkbox options). */
function shownIds(view: ViewOf): string[] {
  const ids: string[] = [];
  type Element = { type?: string; options?: { value?: string }[] };
  for (const block of view.blocks as { elements?: Element[] }[]) {
    for (const element of block.elements ?? []) {
      if (element.type !== 'checkboxes') continue;
      for (const o of element.options ?? []) if (typeof o.value === 'string') ids.push(o.value);
    }
  }
  return ids;
}

/** The ids ticked on a list view, as its state says. */
function tickedIds(view: ViewOf): string[] {
  const ids: string[] = [];
  for (const block of Object.values(view.state?.values ?? {})) {
    for (const element of Object.values(block)) {
      for (const o of (element as { selected_options?: { value?: string }[] }).selected_options ?? []) {
        if (typeof o.value === 'string') ids.push(o.value);
      }
    }
  }
  return ids;
}

/**
 * The selection a click on the list carries: the metadata's, with the shown page's ticks read in, at
 * most MAX_SELECTED (the ticks beyond are dropped, `dropped` says how many: the metadata must fit).
 */
export function selectionOf(view: ViewOf | undefined): (Selection & { dropped: number }) | undefined {
  if (!view) return undefined;
  const before = decodeSelection(view.private_metadata);
  if (!before) return undefined;
  const ids = mergePage(before.ids, shownIds(view), tickedIds(view));
  return { page: before.page, ids: ids.slice(0, MAX_SELECTED), dropped: Math.max(0, ids.length - MAX_SELECTED) };
}

/** What the list says when ticks were dropped. */
export function droppedNote(dropped: number): string | undefined {
  if (dropped === 0) return undefined;
  return `:warning: At most ${MAX_SELECTED} can be ticked at once: the last ${dropped} ticked on that page were not kept. Decide these first, then the rest.`;
}

export const LIST_GONE = `:grey_question: ${escapeMrkdwn('That list can no longer be read; please run /licenses approvals again.')}`;

/** Previous / Next: the ticks kept, the other page shown. */
export function createPagerHandler(s: Surface) {
  return onClick(s, { need: 'admin' }, async (args) => {
    const view = args.body.view;
    const selection = selectionOf(view);
    if (!view) return;
    if (!selection) return void (await updateView(s.deps, args.client, view.id, buildApprovalsInfoModal(LIST_GONE)));
    const page = Number.parseInt(args.action.value ?? '', 10);
    const next = { ids: selection.ids, page: Number.isSafeInteger(page) && page >= 0 ? page : selection.page };
    const note = droppedNote(selection.dropped);
    await updateView(s.deps, args.client, view.id, await listView(s.deps, args.client, args.body.user.id, next, note));
  });
}
