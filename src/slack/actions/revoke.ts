/**
 * Revoking from a message: `/licenses revoke <id>` and the Revoke… button show a confirmation naming
 * student, course and pool; its "Revoke now" revokes once (services/revoke.ts), and the message loses
 * its buttons and shows the outcome. The gate asks the role on every click (gate.ts): anyone who
 * sees a message can click it, and a refused click changes nothing and leaves the message as it was.
 */
import { buildErrorMessage, buildWorkingMessage } from '../../blocks/common.js';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import { buildOutcomeMessage } from '../../blocks/outcome.js';
import { buildNotRevokableMessage, buildRevokeConfirmMessage } from '../../blocks/revoke-confirm.js';
import { idValue } from '../../blocks/values.js';
import { revokeBlocker } from '../../domain/revocation.js';
import { getLicenseDetails } from '../../services/licenses.js';
import { revoke } from '../../services/revoke.js';
import type { AppDeps } from '../deps.js';
import { BUTTON_GONE, type ClickArgs, onClick } from '../gate.js';
import { presentError } from '../present.js';
import { createReplier, type Replier } from '../reply.js';
import { changeContext, type Surface } from '../state.js';
import { revokeOutcomeMessage } from '../views/outcome-text.js';

/** Reads the license and shows the confirmation, or why it can't be revoked. */
export async function showRevokeConfirmation(deps: AppDeps, licenseId: string, reply: Replier): Promise<void> {
  await reply.send(buildWorkingMessage('reading the license'));
  try {
    const { license, pool } = await getLicenseDetails(deps.licensing, licenseId);
    const blocker = revokeBlocker(license, deps.now());
    await reply.send(
      blocker ? buildNotRevokableMessage(license, pool, blocker) : buildRevokeConfirmMessage(license, pool),
    );
  } catch (error) {
    await reply.send(buildErrorMessage(presentError(error, 'license', 'admin')));
  }
}

/** A refused revoke click is audited with the license id, when the (forgeable) value is a well-formed one. */
const revokeGate = {
  need: 'admin' as const,
  audit: (args: ClickArgs) => {
    const licenseId = idValue.decode(args.action.value);
    return { action: 'revoke' as const, target: licenseId ? { licenseId } : {} };
  },
};

export function createRevokeButtonHandler(s: Surface) {
  return onClick(s, revokeGate, async ({ body, action, respond }) => {
    if (!body.response_url) return;
    const reply = createReplier(respond, s.deps, false);
    const licenseId = idValue.decode(action.value);
    if (!licenseId) return reply.send(buildErrorMessage(BUTTON_GONE));
    await showRevokeConfirmation(s.deps, licenseId, reply);
  });
}

export function createRevokeConfirmHandler(s: Surface) {
  return onClick(s, revokeGate, async ({ body, action, respond }) => {
    if (!body.response_url) return;
    const reply = createReplier(respond, s.deps, false);
    const licenseId = idValue.decode(action.value);
    if (!licenseId) return reply.send(buildErrorMessage(BUTTON_GONE));
    const ts = body.container.message_ts ?? body.message?.ts ?? 'no-ts';
    if (!(await s.state.once.claim(`revoke:${ts}:${licenseId}`))) {
      return s.deps.logger.info('repeated revoke click ignored', { licenseId });
    }
    await reply.send(buildWorkingMessage(`revoking license ${licenseId}`));
    const outcome = await revoke(changeContext(s), { actor: body.user.id, licenseId });
    await reply.send(revokeOutcomeMessage(outcome));
  });
}

export function createRevokeCancelHandler(s: Surface) {
  return onClick(s, { need: 'admin', audit: () => ({ action: 'revoke' }) }, async ({ body, action, respond }) => {
    if (!body.response_url) return;
    const licenseId = idValue.decode(action.value);
    const id = licenseId ? ` \`${escapeMrkdwn(licenseId)}\`` : '';
    await createReplier(respond, s.deps, false).send(
      buildOutcomeMessage({ tone: 'info', headline: `Nothing was changed; license${id} stays as it was.` }),
    );
  });
}
