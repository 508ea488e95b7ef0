/**
 * Revoking from a message: `/licenses revoke <id>` and the Revoke… button show a confirmation naming
 * student, course and pool; its "Revoke now" revokes once (services/revoke.ts), and the message loses
 * its buttons and shows the outcome. The gate asks the role on every click (gate.ts): anyone who
 * sees a message can click it, and a refused click changes nothing and leaves the message as it was.
 */
import { buildErrorMessage, buildWorkingMessage } from '../../../kernel/blocks/common.js';
import { idValue } from '../../../kernel/blocks/values.js';
import { BUTTON_GONE, type ClickArgs, onClick } from '../../../kernel/slack/gate.js';
import { limitWait } from '../../../kernel/slack/limit-wait.js';
import { createReplier, type Replier } from '../../../kernel/slack/reply.js';
import { changeContext, type Surface } from '../../../kernel/slack/state.js';
import { buildRevokeCancelledMessage, buildRevokeOutcomeMessage } from '../../blocks/revoke.js';
import { revoke } from '../../services/revoke.js';
import { revokeConfirmation } from '../revoke-check.js';

/** A refused revoke click is audited with the license id, when the (forgeable) value is a well-formed one. */
const revokeGate = {
  need: 'admin' as const,
  audit: (args: ClickArgs) => {
    const licenseId = idValue.decode(args.action.value);
    return { action: 'revoke' as const, target: licenseId ? { licenseId } : {} };
  },
};

/** A revoke button on a message, behind the gate: the license id from its value, or "no longer works". */
function onRevokeClick(s: Surface, handle: (licenseId: string, reply: Replier, args: ClickArgs) => Promise<void>) {
  return onClick(s, revokeGate, async (args) => {
    if (!args.body.response_url) return;
    const reply = createReplier(args.respond, s.deps, false);
    const licenseId = idValue.decode(args.action.value);
    if (!licenseId) return reply.send(buildErrorMessage(BUTTON_GONE));
    await handle(licenseId, reply, args);
  });
}

export function createRevokeButtonHandler(s: Surface) {
  return onRevokeClick(s, async (licenseId, reply) => {
    await reply.send(buildWorkingMessage('reading the license', limitWait(s.deps)));
    await reply.send(await revokeConfirmation(s.deps, licenseId));
  });
}

export function createRevokeConfirmHandler(s: Surface) {
  return onRevokeClick(s, async (licenseId, reply, { body }) => {
    const ts = body.container.message_ts ?? body.message?.ts ?? 'no-ts';
    if (!(await s.state.once.claim(`revoke:${ts}:${licenseId}`))) {
      return s.deps.logger.info('repeated revoke click ignored', { licenseId });
    }
    await reply.send(buildWorkingMessage(`revoking license ${licenseId}`, limitWait(s.deps)));
    const outcome = await revoke(changeContext(s), { actor: body.user.id, licenseId });
    await reply.send(buildRevokeOutcomeMessage(outcome));
  });
}

export function createRevokeCancelHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: () => ({ action: 'revoke' }) }, async ({ body, action, respond }) => {
    if (!body.response_url) return;
    await createReplier(respond, s.deps, false).send(buildRevokeCancelledMessage(idValue.decode(action.value)));
  });
}
