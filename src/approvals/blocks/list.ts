/**
 * The views of `/licenses approvals`: the list of waiting requests (a page of at most PAGE_SIZE, in
 * checkbox groups of one pool and at most ten requests, each labelled with its pool's free seats),
 * Previous / Next, Approve selected and Deny selected; the loading and info views. Pure: data in,
 * blocks out; every string from a person or the API is escaped (plain text needs none).
 */
import { ApprovalsActionId, ApprovalsCallbackId, ApprovalsInputId } from '../../kernel/blocks/ids.js';
import { actions, button, context, section } from '../../kernel/blocks/kit.js';
import {
  buildLoadingModal,
  type Checkboxes,
  type ChoiceActionsBlock,
  compactView,
  type ModalView,
  modal,
  type OptionObject,
  option,
  type ViewBlock,
} from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import { dayText } from '../../kernel/domain/end-date.js';
import type { CourseRequest } from '../../requests/index.js';
import { type FreeSeats, type Group, groupsOfPage } from '../domain/plan.js';
import { encodeSelection, MAX_SELECTED, pageCount, type Selection } from '../domain/selection.js';

export const APPROVALS_TITLE = 'Approvals';

/** "3 free seats", "full", or "free seats unknown" when the pools could not be read. */
export function freeWords(free: number | undefined): string {
  if (free === undefined) return 'free seats unknown';
  return free <= 0 ? 'full' : count(free, 'free seat');
}

function groupLabel(group: Group, free: FreeSeats): string {
  return `*${escapeTruncated(group.courseTitle, 200)}* · pool ${escapeTruncated(group.poolId, 40)} — ${freeWords(free.get(group.poolId))}`;
}

function optionOf(r: CourseRequest): OptionObject {
  const who = r.requesterName ?? r.requesterEmail;
  const asked = dayText(r.createdAt);
  const description = [r.requesterEmail !== who ? r.requesterEmail : '', r.reason ?? ''].filter(Boolean).join(' · ');
  return option(`${who}${asked ? ` — asked ${asked}` : ''}`, r.id, description || undefined);
}

/** A group's label, then its checkboxes (in an actions block: a modal of input blocks would need a submit). */
function checkboxGroup(group: Group, n: number, free: FreeSeats, selected: ReadonlySet<string>): ViewBlock[] {
  const options = group.requests.map(optionOf);
  const ticked = options.filter((o) => selected.has(o.value));
  const element: Checkboxes = {
    type: 'checkboxes',
    action_id: ApprovalsInputId.pickAction,
    options,
    ...(ticked.length > 0 ? { initial_options: ticked } : {}),
  };
  const boxes: ChoiceActionsBlock = { type: 'actions', block_id: ApprovalsInputId.pickBlock(n), elements: [element] };
  return [section(groupLabel(group, free)), boxes];
}

export interface ListInput {
  /** The waiting requests in the admin's pools, oldest first. */
  requests: readonly CourseRequest[];
  free: FreeSeats;
  selection: Selection;
  /** A line on top (what the last click came to), mrkdwn already escaped. */
  note?: string;
}

export function buildApprovalsListModal({ requests, free, selection, note }: ListInput): ModalView {
  const pages = pageCount(requests.length);
  const page = selection.page;
  const selected = new Set(selection.ids);
  const groups = groupsOfPage(requests, page);
  const summary =
    requests.length === 0
      ? ':tada: Nothing is waiting for a decision in your pools.'
      : `*${count(requests.length, 'request')} waiting* in your pools, oldest first · page ${page + 1} of ${pages} · *${selected.size} selected* (at most ${MAX_SELECTED} at once)`;
  const pager = [
    page > 0 ? button(ApprovalsActionId.previous, '◀ Previous', String(page - 1)) : undefined,
    page + 1 < pages ? button(ApprovalsActionId.next, 'Next ▶', String(page + 1)) : undefined,
  ].filter((b) => b !== undefined);
  return modal({
    callbackId: ApprovalsCallbackId.list,
    title: APPROVALS_TITLE,
    privateMetadata: encodeSelection(selection),
    blocks: compactView([
      note ? section(note) : undefined,
      section(summary),
      ...groups.flatMap((g, n) => checkboxGroup(g, n, free, selected)),
      pager.length > 0 ? actions(pager) : undefined,
      requests.length > 0
        ? actions([
            button(ApprovalsActionId.approveSelected, 'Approve selected', 'approve', 'primary'),
            button(ApprovalsActionId.denySelected, 'Deny selected', 'deny', 'danger'),
          ])
        : undefined,
      requests.length > 0
        ? context('Ticks are kept when you turn the page. Each approval assigns one license, oldest first.')
        : undefined,
    ]),
  });
}

export function buildApprovalsLoadingModal(what: string): ModalView {
  return buildLoadingModal(ApprovalsCallbackId.info, APPROVALS_TITLE, what);
}

/** A view with one sentence (mrkdwn, escaped by the caller) and nothing to submit. */
export function buildApprovalsInfoModal(text: string, title = APPROVALS_TITLE): ModalView {
  return modal({ callbackId: ApprovalsCallbackId.info, title, blocks: [section(truncate(text, 3000))] });
}

/** The refusal of a selection that names a request outside the admin's pools. */
export function outsideScopeText(outside: number): string {
  return `:no_entry_sign: ${escapeMrkdwn(`${count(outside, 'selected request is', 'selected requests are')} for pools outside yours, so nothing was decided. Run /licenses approvals again.`)}`;
}
