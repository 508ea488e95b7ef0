/**
 * The bulk modal's two submissions (design.md section 2, shape 3):
 * - the form: shape checks answered inline with no API call; otherwise a "checking" view is pushed
 *   at once (closing the report later returns to the form with the list still typed), then the dry
 *   run reads the API and replaces it with the report (by external_id: the ack does not return ids);
 * - the report: the role again, the draft must be this person's, recycling must be ticked when the
 *   pool is short; then the job is saved and started, and the modal closes (progress goes to a DM).
 * A repeated submission finds its draft claimed (or gone) and starts nothing; a failed start keeps it.
 */

import { randomBytes } from 'node:crypto';
import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction, webApi } from '@slack/bolt';
import { buildBulkLoadingView, buildBulkMessageView } from '../../blocks/bulk-form.js';
import { buildBulkReportView } from '../../blocks/bulk-report.js';
import { withSandboxMarkerView } from '../../blocks/common.js';
import { BulkInputId } from '../../blocks/ids.js';
import { endDateProblem } from '../../domain/bulk-plan.js';
import { count } from '../../domain/count.js';
import { dryRunBulk, jobFromDraft } from '../../services/bulk.js';
import type { AppDeps } from '../deps.js';
import { presentError } from '../present.js';
import { SlackBusyError } from '../roles.js';
import { adminOnlyText, markedAck, roleOf } from '../views/slack-io.js';
import { changeState } from '../views/state.js';
import { formErrors, readBulkForm, recycleConfirmed } from './form.js';
import { createBulkNotifier } from './notifier.js';
import { ADMINS_ONLY } from './open.js';

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** Why this person may not go on (no desk, not an admin, or Slack too busy to tell); undefined: go on. */
async function refusal(deps: AppDeps, client: webApi.WebClient, userId: string): Promise<string | undefined> {
  if (!deps.desk) return ADMINS_ONLY;
  const role = await roleOf(deps, client, userId);
  if (role instanceof SlackBusyError) return adminOnlyText(deps, role);
  return role === 'admin' ? undefined : ADMINS_ONLY;
}

export function createBulkFormSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: SubmitArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const userId = body.user.id;
    const desk = deps.desk;
    const refused = await refusal(deps, client, userId);
    if (!desk || refused) {
      return ack({ response_action: 'update', view: buildBulkMessageView(refused ?? ADMINS_ONLY) });
    }
    const form = readBulkForm(view.state.values);
    const errors = formErrors(form, deps.now().toISOString().slice(0, 10));
    if (Object.keys(errors).length > 0 || !form.poolId) return ack({ response_action: 'errors', errors });
    const externalId = `bulk-check-${randomBytes(8).toString('hex')}`;
    await ack({
      response_action: 'push',
      view: { ...buildBulkLoadingView(`Checking ${count(form.list.rows.length, 'line')}`), external_id: externalId },
    });
    let next: ReturnType<typeof buildBulkReportView>;
    try {
      const { pool, plan } = await dryRunBulk(deps.licensing, { poolId: form.poolId, rows: form.list.rows });
      const dateProblem = form.endDate ? endDateProblem(form.endDate, pool, deps.now()) : undefined;
      if (dateProblem) {
        next = buildBulkMessageView(`${dateProblem} Close this window to change the date; your list is kept.`);
      } else {
        const draft = desk.drafts.put({
          requester: userId,
          pool,
          plan,
          ...(form.endDate ? { endDate: form.endDate } : {}),
        });
        next = buildBulkReportView(draft);
      }
    } catch (error) {
      deps.logger.warn('bulk dry run failed', { error: String(error) });
      next = buildBulkMessageView(presentError(error, 'pool', 'admin'));
    }
    await client.views
      .update({ external_id: externalId, view: withSandboxMarkerView(next, deps.sandbox) })
      .catch((error: unknown) => deps.logger.warn('views.update failed', { error: String(error) }));
  };
}

export function createBulkConfirmSubmitHandler(deps: AppDeps) {
  return async ({ ack: rawAck, body, view, client }: SubmitArgs): Promise<void> => {
    const ack = markedAck(deps, rawAck);
    const userId = body.user.id;
    const desk = deps.desk;
    const refused = await refusal(deps, client, userId);
    if (!desk || refused) {
      return ack({ response_action: 'update', view: buildBulkMessageView(refused ?? ADMINS_ONLY) });
    }
    // private_metadata only names the draft; the draft itself stays on the server, tied to its author.
    const draft = desk.drafts.peek(view.private_metadata, userId);
    if (!draft) {
      return ack({
        response_action: 'update',
        view: buildBulkMessageView(
          'This check has expired or was already started. Run /licenses bulk again to check the list afresh.',
        ),
      });
    }
    if (draft.plan.seats === 'blocked' || draft.plan.ready === 0) {
      return ack({ response_action: 'update', view: buildBulkMessageView('Nothing to start: see the check.') });
    }
    if (draft.plan.seats === 'recycle' && !recycleConfirmed(view.state.values)) {
      const n = draft.plan.shortfall;
      return ack({
        response_action: 'errors',
        errors: {
          [BulkInputId.recycle.block]:
            `Tick this to end ${n} license${n === 1 ? '' : 's'}, or close and shorten the list.`,
        },
      });
    }
    // A repeated submission waits out the first one's start; the draft goes only once the job is
    // saved, so a start that failed leaves the report in place and submitting again works.
    const key = `bulk-start:${draft.id}`;
    const once = changeState(deps).once;
    if (!(await once.claim(key))) {
      return ack({ response_action: 'update', view: buildBulkMessageView('This job was already started.') });
    }
    const job = jobFromDraft(draft, deps.now());
    try {
      await desk.runner.start(job, createBulkNotifier(client, deps, userId));
    } catch (error) {
      await once.release(key);
      deps.logger.error('bulk job could not start', { error: String(error) });
      return ack({
        response_action: 'update',
        view: buildBulkReportView(draft, presentError(error, 'other', 'admin')),
      });
    }
    desk.drafts.take(view.private_metadata, userId);
    deps.logger.info('bulk job started', { job: job.id, rows: job.rows.length, user: userId });
    await ack({ response_action: 'clear' });
  };
}
