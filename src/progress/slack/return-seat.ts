/**
 * "Return this seat" on App Home (docs/progress.md): the revoke confirmation, read fresh, comes by DM
 * (App Home has no response_url), and its "Revoke now" is the ordinary revoke (once, audited, the freed
 * seat to the waitlist's first). App Home itself is published again at each step with one line on top
 * saying where the return stands: confirm it in the DM, returned (the seat gone from the list, since the
 * revoke reaches the progress records at once), or why nothing was returned. The line shows this once.
 */

import { buildRevokeOutcomeMessage, returnResultLine, revoke, revokeConfirmationOf } from '../../changes/index.js';
import { type HomeSections, showHome } from '../../home/index.js';
import { buildErrorMessage, buildWorkingMessage } from '../../kernel/blocks/common.js';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import { idValue } from '../../kernel/blocks/values.js';
import { BUTTON_GONE, type ClickArgs, onClick, tellClicker } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { changeContext, type Surface } from '../../kernel/slack/state.js';

/** A refused click is audited as a revoke, with the license id when the (forgeable) value is a well-formed one. */
const returnGate = {
  need: 'admin' as const,
  audit: (args: ClickArgs) => {
    const licenseId = idValue.decode(args.action.value);
    return { action: 'revoke' as const, target: licenseId ? { licenseId } : {} };
  },
};

export function createReturnSeatHandler(s: Surface, sections?: HomeSections) {
  return onClick(s, returnGate, async (args) => {
    const licenseId = idValue.decode(args.action.value);
    if (!licenseId) return tellClicker(s, args, buildErrorMessage(BUTTON_GONE));
    const { check, message } = await revokeConfirmationOf(s.deps, licenseId, DeskActionId.returnSeatConfirm);
    await tellClicker(s, args, message);
    await showHome(s.deps, args.client, args.body.user.id, { sections, result: returnResultLine(check) });
  });
}

/** The DM confirmation's "Revoke now": the revoke, its outcome in the DM, and App Home published again. */
export function createReturnConfirmHandler(s: Surface, sections?: HomeSections) {
  return onClick(s, returnGate, async (args) => {
    if (!args.body.response_url) return;
    const reply = createReplier(args.respond, s.deps, false);
    const licenseId = idValue.decode(args.action.value);
    if (!licenseId) return reply.send(buildErrorMessage(BUTTON_GONE));
    const { body } = args;
    const ts = body.container.message_ts ?? body.message?.ts ?? 'no-ts';
    if (!(await s.state.once.claim(`revoke:${ts}:${licenseId}`))) {
      return s.deps.logger.info('repeated return click ignored', { licenseId });
    }
    await reply.send(buildWorkingMessage(`returning license ${licenseId}`));
    const outcome = await revoke(changeContext(s), { actor: body.user.id, licenseId });
    await reply.send(buildRevokeOutcomeMessage(outcome));
    await showHome(s.deps, args.client, body.user.id, { sections, result: returnResultLine(outcome) });
  });
}
