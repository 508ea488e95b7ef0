/**
 * "Ask for more time" on a learner's own license, and its form. The click names a license (a hint,
 * never authority): the clicker's Slack e-mail (users.info, asked fresh) must be the license's
 * student's, read fresh from the licensing API; anyone else's click is refused plainly and changes
 * nothing. The form's submission is checked field by field (response_action errors), then it becomes
 * an extension request.
 */
import { ExtensionInputId } from '../../kernel/blocks/ids.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { isId } from '../../kernel/domain/ids.js';
import type { SubmitArgs } from '../../kernel/slack/gate.js';
import { authorizeRequester, type ClickArgs, type MarkedSubmitArgs } from '../../kernel/slack/gate.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { markedAck, openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { askRefusalText, buildExtensionInfoModal, buildMoreTimeModal } from '../blocks/extensions.js';

/** A forged or altered click is recorded: who tried, on which license (a well-formed id only). */
async function auditForged(s: Surface, actor: string, licenseId: string): Promise<void> {
  const entry: AuditEntry = {
    at: s.deps.now().toISOString(),
    actor,
    action: 'requested',
    outcome: 'refused',
    licenseId,
    detail: 'more time asked on a license the clicker does not hold',
  };
  await s.state.audit
    .record(entry)
    .catch((error: unknown) =>
      s.deps.logger.warn('could not audit a refused ask for more time', { error: String(error) }),
    );
}

/** The learner's click: a working view at once (the trigger lives 3 s), then the form or why not. */
export function createMoreTimeHandler(s: Surface) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const { deps } = s;
    const user = args.body.user.id;
    const viewId = await openView(
      deps,
      args.client,
      args.body.trigger_id,
      buildExtensionInfoModal(':hourglass_flowing_sand: Reading your license…'),
    );
    const show = async (text: string) => {
      if (viewId) await updateView(deps, args.client, viewId, buildExtensionInfoModal(text));
    };
    const service = deps.extensions?.service;
    if (!service) return show(':grey_question: Asking for more time is not set up here; please ask a license admin.');
    const licenseId = args.action.value;
    if (!isId(licenseId)) return show(':grey_question: That button does not name a license; open your licenses again.');
    const verdict = await authorizeRequester(deps, args.client, user);
    if (!verdict.allowed) return show(`:lock: ${verdict.text}`);
    const who = await resolveUserEmail(args.client, user);
    if ('problem' in who) return show(`:warning: ${who.problem}`);
    try {
      const held = await service.holding(licenseId, who.email);
      if (!held.ok) {
        if (held.refusal.kind === 'not-yours') await auditForged(s, user, licenseId);
        return show(askRefusalText(held.refusal));
      }
      const { license, pool } = held;
      const form = buildMoreTimeModal({
        licenseId: license.id,
        courseTitle: pool.course.title,
        poolId: pool.id,
        currentEnd: license.end,
        poolEnd: pool.end,
      });
      if (viewId) await updateView(deps, args.client, viewId, form);
    } catch (error) {
      deps.logger.warn('could not open the more-time form', { error: String(error) });
      await show(
        ':warning: License Desk could not read your license right now; nothing was changed. Please try again in a minute.',
      );
    }
  };
}

/** The form's submission: each field's problem next to it; otherwise the request is made. */
export function createMoreTimeSubmitHandler(s: Surface) {
  return async (raw: SubmitArgs): Promise<void> => {
    const args: MarkedSubmitArgs = { ...raw, ack: markedAck(s.deps, raw.ack) };
    const { view, body, client } = args;
    const values = view.state.values;
    const endDate = values[ExtensionInputId.endDate.block]?.[ExtensionInputId.endDate.action]?.selected_date ?? '';
    const reason = values[ExtensionInputId.reason.block]?.[ExtensionInputId.reason.action]?.value ?? '';
    const service = s.deps.extensions?.service;
    const licenseId = view.private_metadata;
    if (!service || !isId(licenseId)) {
      await args.ack({
        response_action: 'update',
        view: buildExtensionInfoModal(':grey_question: That form does not name a license; open your licenses again.'),
      });
      return;
    }
    const verdict = await authorizeRequester(s.deps, client, body.user.id);
    const who = verdict.allowed ? await resolveUserEmail(client, body.user.id) : { problem: verdict.text };
    if ('problem' in who) {
      await args.ack({ response_action: 'update', view: buildExtensionInfoModal(`:lock: ${who.problem}`) });
      return;
    }
    const outcome = await service
      .ask({ requester: body.user.id, requesterEmail: who.email, licenseId, endDate, reason })
      .catch((error: unknown) => {
        s.deps.logger.warn('an ask for more time failed', { error: String(error) });
        return undefined;
      });
    if (!outcome) {
      await args.ack({
        response_action: 'update',
        view: buildExtensionInfoModal(
          ':warning: License Desk could not take your request right now; nothing was changed. Please try again in a minute.',
        ),
      });
      return;
    }
    if (outcome.ok) {
      await args.ack({
        response_action: 'update',
        view: buildExtensionInfoModal(':incoming_envelope: Sent to the license admins. You hear the answer by DM.'),
      });
      return;
    }
    const r = outcome.refusal;
    if (r.kind === 'date' || r.kind === 'reason') {
      const block = r.kind === 'date' ? ExtensionInputId.endDate.block : ExtensionInputId.reason.block;
      await args.ack({ response_action: 'errors', errors: { [block]: r.problem } });
      return;
    }
    if (r.kind === 'not-yours') await auditForged(s, body.user.id, licenseId);
    await args.ack({ response_action: 'update', view: buildExtensionInfoModal(askRefusalText(r)) });
  };
}
