/** `/licenses approvals` in tests: waiting requests put in the records, the list's views, clicks on them. */
import { ApprovalsActionId, ApprovalsCallbackId } from '../../src/kernel/blocks/ids.js';
import type { CourseRequest } from '../../src/requests/domain/requests.js';
import type { TestApp } from './app-harness.js';
import type { SlackCall } from './fake-slack.js';

/** Request number `n`'s id: `r` and 12 hex digits, as the app makes them. */
export const requestIdOf = (n: number) => `r${n.toString(16).padStart(12, '0')}`;

const COURSES: Record<string, string> = {
  '2001': 'Mastering DAX',
  '2002': 'Mastering DAX',
  '2003': 'Optimizing DAX',
  '2005': 'Power Query Fundamentals',
  '2007': 'Power Query Fundamentals',
};

/** A request waiting for a decision, asked `n` minutes after a fixed morning (so number order is age order). */
export function waitingRequest(n: number, poolId: string, who: { id: string; email: string; name?: string }) {
  const r: CourseRequest = {
    id: requestIdOf(n),
    requester: who.id,
    requesterEmail: who.email,
    ...(who.name ? { requesterName: who.name } : {}),
    poolId,
    courseTitle: COURSES[poolId] ?? 'A course',
    createdAt: new Date(Date.UTC(2026, 10, 20, 8, 0) + n * 60_000).toISOString(),
    status: 'pending',
    source: 'command',
    cards: [],
  };
  return r;
}

export async function putWaiting(t: TestApp, requests: readonly CourseRequest[]): Promise<void> {
  const store = t.selfService?.store;
  if (!store) throw new Error('the app runs no course requests');
  for (const r of requests) await store.put(r);
}

export interface ShownView {
  id: string;
  callback_id: string;
  private_metadata: string;
  blocks: {
    type: string;
    block_id?: string;
    elements?: { type: string; options?: { value: string }[]; initial_options?: { value: string }[] }[];
  }[];
}

export const viewOf = (c: SlackCall) => c.args.view as ShownView;

/** The ids of the requests a list view shows. */
const boxesOf = (view: ShownView) =>
  view.blocks.flatMap((b) => (b.elements ?? []).filter((e) => e.type === 'checkboxes').map((e) => ({ block: b, e })));

export function shownIds(view: ShownView): string[] {
  return boxesOf(view).flatMap(({ e }) => (e.options ?? []).map((o) => o.value));
}

/** The ids a list view shows ticked. */
export function tickedIds(view: ShownView): string[] {
  return boxesOf(view).flatMap(({ e }) => (e.initial_options ?? []).map((o) => o.value));
}

/** The state Slack sends with a click on the list: `ticked` checked in whichever group shows them. */
function stateOf(view: ShownView, ticked: readonly string[]) {
  const values: Record<string, Record<string, unknown>> = {};
  for (const { block, e } of boxesOf(view)) {
    if (!block.block_id) continue;
    const selected = (e.options ?? []).filter((o) => ticked.includes(o.value)).map((o) => ({ value: o.value }));
    values[block.block_id] = { approvals_pick: { type: 'checkboxes', selected_options: selected } };
  }
  return { values };
}

/** A click on a button of a modal (`view` as the app last sent it, with `ticked` checked), signed. */
export function clickInView(
  t: TestApp,
  view: ShownView,
  button: { actionId: string; value: string },
  user: string,
  ticked: readonly string[] = [],
) {
  return t.action(
    {
      container: { type: 'view', view_id: view.id },
      view: { ...view, type: 'modal', state: stateOf(view, ticked), hash: 'h', team_id: 'T0ACME0001' },
      actions: [
        {
          action_id: button.actionId,
          block_id: 'b',
          type: 'button',
          value: button.value,
          action_ts: `${Date.now() / 1000}`,
        },
      ],
    },
    { userId: user },
  );
}

/** The newest update of a view with `callbackId` whose text has `words`, once it came. */
export async function viewWith(t: TestApp, callbackId: string, words: string, after = 0): Promise<ShownView> {
  const call = await t.slack.waitForCall(
    'views.update',
    (c) =>
      t.slack.calls.indexOf(c) >= after &&
      viewOf(c).callback_id === callbackId &&
      JSON.stringify(viewOf(c).blocks).includes(words),
  );
  return { ...viewOf(call), id: String(call.args.view_id) };
}

export const LIST = ApprovalsCallbackId.list;
export const { next: NEXT, previous: PREVIOUS, approveSelected: APPROVE, denySelected: DENY } = ApprovalsActionId;
