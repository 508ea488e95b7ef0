/**
 * The approvers' Approve and Deny… on an extension request's card, and the deny modal: the one gate
 * (deciding needs 'admin', asked fresh), the request id parsed, one use case, the answer back to
 * whoever clicked (the card itself is updated on every copy through the outbox).
 */
import { decidesFor } from '../../approvers/index.js';
import { ExtensionInputId } from '../../kernel/blocks/ids.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { type ClickArgs, onClick, onSubmit, type SubmitArgs, tellClicker } from '../../kernel/slack/gate.js';
import { openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { reasonProblem } from '../../requests/index.js';
import {
  buildExtensionDecisionText,
  buildExtensionDenyModal,
  buildExtensionInfoModal,
  buildExtensionNote,
  DENY_TITLE,
} from '../blocks/extensions.js';

/** An extension request's id as newExtensionId() makes it. */
export function parseExtensionId(value: unknown): string | undefined {
  return typeof value === 'string' && /^x[0-9a-f]{12}$/.test(value) ? value : undefined;
}

const refusalOf = (action: AuditEntry['action']) => (args: ClickArgs) => {
  const id = parseExtensionId(args.action.value);
  return { action, ...(id ? { target: { requestId: id } } : {}) };
};

/**
 * A delegate's click (docs/roles-and-approvals.md): no role of their own, but an accepted delegation,
 * in force today, from an approver of the request's pool.
 */
async function delegated(s: Surface, client: ClickArgs['client'], user: string, id: string | undefined) {
  const request = id ? await s.deps.extensions?.service.get(id).catch(() => undefined) : undefined;
  return request ? (await decidesFor(s.deps, client, user, request.poolId)) !== undefined : false;
}
const delegatedClick = (s: Surface) => (args: ClickArgs) =>
  delegated(s, args.client, args.body.user.id, parseExtensionId(args.action.value));
const delegatedSubmit = (s: Surface) => (args: SubmitArgs) =>
  delegated(s, args.client, args.body.user.id, parseExtensionId(args.view.private_metadata));

const tell = (s: Surface, args: ClickArgs, text: string) => tellClicker(s, args, buildExtensionNote(text));

export function createApproveHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: refusalOf('approved'), orElse: delegatedClick(s) }, async (args) => {
    const id = parseExtensionId(args.action.value);
    const service = s.deps.extensions?.service;
    if (!id || !service) return tell(s, args, buildExtensionDecisionText({ kind: 'not-found' }));
    await tell(s, args, buildExtensionDecisionText(await service.approve(id, args.body.user.id)));
  });
}

export function createDenyHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: refusalOf('denied'), orElse: delegatedClick(s) }, async (args) => {
    const id = parseExtensionId(args.action.value);
    const request = id ? await s.deps.extensions?.service.get(id) : undefined;
    if (!request) return tell(s, args, buildExtensionDecisionText({ kind: 'not-found' }));
    if (request.requester === args.body.user.id)
      return tell(s, args, buildExtensionDecisionText({ kind: 'own', request }));
    if (request.status !== 'pending') return tell(s, args, buildExtensionDecisionText({ kind: 'already', request }));
    const opened = await openView(s.deps, args.client, args.body.trigger_id, buildExtensionDenyModal(request));
    if (!opened) await tell(s, args, ':x: Slack would not open the form; please click Deny… again.');
  });
}

export function createDenySubmitHandler(s: Surface) {
  return onSubmit(
    s,
    { need: 'admin', title: DENY_TITLE, audit: { action: 'denied' }, orElse: delegatedSubmit(s) },
    async ({ ack, view, body, client }) => {
      const id = parseExtensionId(view.private_metadata);
      const block = ExtensionInputId.denyReason;
      const reason = view.state.values[block.block]?.[block.action]?.value?.trim() || undefined;
      const tooLong = reason ? reasonProblem(reason) : undefined;
      if (tooLong) return void (await ack({ response_action: 'errors', errors: { [block.block]: tooLong } }));
      await ack({
        response_action: 'update',
        view: buildExtensionInfoModal(':hourglass_flowing_sand: Denying…', DENY_TITLE),
      });
      const service = s.deps.extensions?.service;
      const text =
        id && service
          ? buildExtensionDecisionText(await service.deny(id, body.user.id, reason))
          : buildExtensionDecisionText({ kind: 'not-found' });
      await updateView(s.deps, client, view.id, buildExtensionInfoModal(text, DENY_TITLE));
    },
  );
}
