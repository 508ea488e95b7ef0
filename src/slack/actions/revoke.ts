/**
 * Revoking from a message: `/licenses revoke <id>` and the Revoke… button show a
 * confirmation naming student, course and pool; its "Revoke now" revokes once, and the message loses
 * its buttons and shows the outcome. The role is asked on every click: anyone who sees a message can
 * click it, and a refused click changes nothing and leaves the message as it was.
 */
import { buildAdminOnlyMessage, buildErrorMessage, buildWorkingMessage } from '../../blocks/common.js';
import type { SlackMessage } from '../../blocks/kit.js';
import { escapeMrkdwn } from '../../blocks/mrkdwn.js';
import { buildOutcomeMessage } from '../../blocks/outcome.js';
import { buildNotRevokableMessage, buildRevokeConfirmMessage } from '../../blocks/revoke-confirm.js';
import { ID_PATTERN } from '../../domain/ids.js';
import { revokeBlocker } from '../../domain/revocation.js';
import type { AuditEntry } from '../../services/audit.js';
import { getLicenseDetails } from '../../services/licenses.js';
import { revokeLicense } from '../../services/revoke.js';
import { tracked } from '../../services/work-tracker.js';
import { createReplier, type Replier } from '../commands/reply.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { SlackBusyError } from '../roles.js';
import { auditOf, describeWrite, studentFacts, studentWords } from '../views/outcome-text.js';
import { adminOnlyText, type RoleAnswer, roleOf, tellByDm } from '../views/slack-io.js';
import { changeState } from '../views/state.js';
import type { ButtonArgs } from './navigate.js';

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

/** Tells the clicker in a new ephemeral message, or by DM when the click has no response_url (Home tab). */
export async function tellClicker(deps: AppDeps, args: ButtonArgs, message: SlackMessage): Promise<void> {
  if (args.body.response_url) return createReplier(args.respond, deps, true).send(message);
  await tellByDm(deps, args.client, args.body.user.id, message);
}

/**
 * A non-admin's click: told in a new message (the clicked one stays), and recorded. When Slack was too
 * busy to tell the role, the clicker is asked to try again instead, and nothing is recorded.
 */
export async function refuseClick(
  deps: AppDeps,
  args: ButtonArgs,
  answer: RoleAnswer,
  action: AuditEntry['action'],
  target: { licenseId?: string; poolId?: string } = {},
): Promise<void> {
  if (answer instanceof SlackBusyError) return tellClicker(deps, args, buildErrorMessage(adminOnlyText(deps, answer)));
  await tellClicker(deps, args, buildAdminOnlyMessage(deps.roles.whoToAsk()));
  await changeState(deps).audit.record({
    at: deps.now().toISOString(),
    actor: args.body.user.id,
    action,
    outcome: 'refused',
    ...target,
    detail: 'not a license admin',
  });
}

export function createRevokeButtonHandler(deps: AppDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const licenseId = args.action.value ?? '';
    const role = await roleOf(deps, args.client, args.body.user.id);
    // The button value is the clicker's to forge: only a well-formed id reaches the audit trail.
    if (role !== 'admin')
      return refuseClick(deps, args, role, 'revoke', ID_PATTERN.test(licenseId) ? { licenseId } : {});
    if (!args.body.response_url) return;
    const reply = createReplier(args.respond, deps, false);
    if (!ID_PATTERN.test(licenseId))
      return reply.send(buildErrorMessage('That button no longer works; please run /licenses again.'));
    await showRevokeConfirmation(deps, licenseId, reply);
  };
}

export function createRevokeConfirmHandler(deps: AppDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    const { ack, body, action, client } = args;
    await ack();
    const licenseId = action.value ?? '';
    const role = await roleOf(deps, client, body.user.id);
    // The button value is the clicker's to forge: only a well-formed id reaches the audit trail.
    if (role !== 'admin')
      return refuseClick(deps, args, role, 'revoke', ID_PATTERN.test(licenseId) ? { licenseId } : {});
    if (!body.response_url) return;
    const reply = createReplier(args.respond, deps, false);
    if (!ID_PATTERN.test(licenseId))
      return reply.send(buildErrorMessage('That button no longer works; please run /licenses again.'));
    const ts = body.container.message_ts ?? body.message?.ts ?? 'no-ts';
    if (!(await changeState(deps).once.claim(`revoke:${ts}:${licenseId}`))) {
      return deps.logger.info('repeated revoke click ignored', { licenseId });
    }
    await reply.send(buildWorkingMessage(`revoking license ${licenseId}`));
    await revokeNow(deps, body.user.id, licenseId, reply);
  };
}

async function revokeNow(deps: AppDeps, actor: string, licenseId: string, reply: Replier): Promise<void> {
  const audit = changeState(deps).audit;
  const now = deps.now();
  let details: Awaited<ReturnType<typeof getLicenseDetails>>;
  try {
    // DELETE answers nothing: the license is read first, for the answer, the audit and the read-back.
    // licenses.get is never cached, so a license ended since the confirmation is caught below.
    details = await getLicenseDetails(deps.licensing, licenseId);
  } catch (error) {
    await reply.send(buildErrorMessage(`${presentError(error, 'license', 'admin')} Nothing was revoked.`));
    const detail = presentError(error, 'license', 'admin');
    await audit.record({ at: now.toISOString(), actor, action: 'revoke', outcome: 'failed', licenseId, detail });
    return;
  }
  const { license, pool } = details;
  const blocker = revokeBlocker(license, now);
  if (blocker) {
    await reply.send(buildNotRevokableMessage(license, pool, blocker));
    const facts = { ...studentFacts(license), detail: `cannot be revoked (${blocker}); no DELETE sent` };
    await audit.record({ at: now.toISOString(), actor, action: 'revoke', outcome: 'refused', ...facts });
    return;
  }
  const id = escapeMrkdwn(license.id);
  const result = await tracked(deps.work, 'write', `revoke license ${license.id}`, () =>
    revokeLicense(deps.licensing, license),
  );
  const seat = pool?.transferable ? ' The seat is back in the pool.' : '';
  const outcome = describeWrite(result, {
    done: () => `Revoked license \`${id}\` of ${studentWords(license.student)}; their access ended now.${seat}`,
    notDone: `license \`${id}\` was not revoked`,
    check: `\`/licenses show ${id}\``,
    subject: 'license',
  });
  const facts = { ...studentFacts(license), ...(pool ? { courseTitle: pool.course.title } : {}) };
  // Audited without waiting for Slack (see finishChange).
  const audited = audit.record(auditOf('revoke', actor, result, facts, now, 'license'));
  await reply.send(buildOutcomeMessage(outcome));
  await audited;
}

export function createRevokeCancelHandler(deps: AppDeps) {
  return async (args: ButtonArgs): Promise<void> => {
    await args.ack();
    const role = await roleOf(deps, args.client, args.body.user.id);
    if (role !== 'admin') return refuseClick(deps, args, role, 'revoke');
    if (!args.body.response_url) return;
    const id = ID_PATTERN.test(args.action.value ?? '') ? ` \`${escapeMrkdwn(args.action.value ?? '')}\`` : '';
    await createReplier(args.respond, deps, false).send(
      buildOutcomeMessage({ tone: 'info', headline: `Nothing was changed; license${id} stays as it was.` }),
    );
  };
}
