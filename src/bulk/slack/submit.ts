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
import type { Desk } from '../../home/index.js';
import { withSandboxMarkerView } from '../../kernel/blocks/common.js';
import { BulkInputId } from '../../kernel/blocks/ids.js';
import { count } from '../../kernel/domain/count.js';
import { type MarkedSubmitArgs, onSubmit } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import type { Surface } from '../../kernel/slack/state.js';
import { holdForSecondAdmin, type MassChangeFigures } from '../../two-person/index.js';
import { buildBulkLoadingModal, buildBulkNoticeModal } from '../blocks/bulk-form.js';
import { buildBulkReportModal } from '../blocks/bulk-report.js';
import type { BulkDraft } from '../domain/bulk-plan.js';
import { endDateProblem } from '../domain/bulk-plan.js';
import { dryRunBulk, jobFromDraft } from '../services/bulk.js';
import { formErrors, readBulkForm, recycleConfirmed } from './form.js';
import { BULK_NOT_SET_UP } from './open.js';
import { createBulkProgressNotices } from './progress-notices.js';

/** The bulk modal behind the gate: a refusal (the gate's sentence) replaces the modal; not audited. */
function gated(s: Surface, handler: (args: MarkedSubmitArgs, desk: Desk) => Promise<void>) {
  const view = (sentence: string) => ({ response_action: 'update' as const, view: buildBulkNoticeModal(sentence) });
  // A refusal: the gate's own modal (its sentence names whom to ask, in mrkdwn).
  return onSubmit(s, { need: 'admin', title: 'Bulk assign' }, async (args) => {
    if (!s.deps.desk) return args.ack(view(BULK_NOT_SET_UP));
    await handler(args, s.deps.desk);
  });
}

export function createBulkFormSubmitHandler(s: Surface) {
  const { deps } = s;
  return gated(s, async ({ ack, body, view, client }, desk): Promise<void> => {
    const userId = body.user.id;
    const form = readBulkForm(view.state.values);
    const errors = formErrors(form, deps.now().toISOString().slice(0, 10));
    if (Object.keys(errors).length > 0 || !form.poolId) return ack({ response_action: 'errors', errors });
    const externalId = `bulk-check-${randomBytes(8).toString('hex')}`;
    await ack({
      response_action: 'push',
      view: { ...buildBulkLoadingModal(`Checking ${count(form.list.rows.length, 'line')}`), external_id: externalId },
    });
    let next: ReturnType<typeof buildBulkReportModal>;
    try {
      const { pool, plan } = await dryRunBulk(
        deps.licensing,
        { poolId: form.poolId, rows: form.list.rows },
        deps.logger,
      );
      const dateProblem = form.endDate ? endDateProblem(form.endDate, pool, deps.now()) : undefined;
      if (dateProblem) {
        next = buildBulkNoticeModal(`${dateProblem} Close this window to change the date; your list is kept.`);
      } else {
        const draft = desk.drafts.put({
          requester: userId,
          pool,
          plan,
          ...(form.endDate ? { endDate: form.endDate } : {}),
        });
        next = buildBulkReportModal(draft);
      }
    } catch (error) {
      deps.logger.warn('bulk dry run failed', { error: String(error) });
      next = buildBulkNoticeModal(presentError(error, 'pool', 'admin'));
    }
    await client.views
      .update({ external_id: externalId, view: withSandboxMarkerView(next, deps.sandbox) })
      .catch((error: unknown) => deps.logger.warn('views.update failed', { error: String(error) }));
  });
}

export function createBulkConfirmSubmitHandler(s: Surface) {
  const { deps } = s;
  return gated(s, async ({ ack, body, view, client }, desk): Promise<void> => {
    const userId = body.user.id;
    // private_metadata only names the draft; the draft itself stays on the server, tied to its author.
    const draft = desk.drafts.peek(view.private_metadata, userId);
    if (!draft) {
      return ack({
        response_action: 'update',
        view: buildBulkNoticeModal(
          'This check has expired or was already started. Run /licenses bulk again to check the list afresh.',
        ),
      });
    }
    if (draft.plan.seats === 'blocked' || draft.plan.ready === 0) {
      return ack({ response_action: 'update', view: buildBulkNoticeModal('Nothing to start: see the check.') });
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
    const once = s.state.once;
    if (!(await once.claim(key))) {
      return ack({ response_action: 'update', view: buildBulkNoticeModal('This job was already started.') });
    }
    const job = jobFromDraft(draft, deps.now());
    // Over TWO_PERSON_MIN_ROWS the job waits for a second admin (docs/roles-and-approvals.md).
    let held: Awaited<ReturnType<typeof holdForSecondAdmin>>;
    try {
      held = await holdForSecondAdmin(deps, client, {
        submitter: userId,
        figures: bulkFigures(draft, job.rows.length),
        poolIds: [job.poolId],
        plan: job,
      });
    } catch (error) {
      await once.release(key);
      deps.logger.error('bulk job could not be held for a second admin', { error: String(error) });
      return ack({
        response_action: 'update',
        view: buildBulkReportModal(draft, presentError(error, 'other', 'admin')),
      });
    }
    if (held) {
      desk.drafts.take(view.private_metadata, userId);
      return ack({ response_action: 'update', view: held.modal('Bulk assign') });
    }
    try {
      await desk.runner.start(job, createBulkProgressNotices(client, deps, userId));
    } catch (error) {
      await once.release(key);
      deps.logger.error('bulk job could not start', { error: String(error) });
      return ack({
        response_action: 'update',
        view: buildBulkReportModal(draft, presentError(error, 'other', 'admin')),
      });
    }
    desk.drafts.take(view.private_metadata, userId);
    deps.logger.info('bulk job started', { job: job.id, rows: job.rows.length, user: userId });
    await ack({ response_action: 'clear' });
  });
}

/** The dry run's figures, as the second admin's card shows them. */
function bulkFigures(draft: BulkDraft, rows: number): MassChangeFigures {
  return {
    kind: 'bulk',
    poolId: draft.pool.id,
    courseTitle: draft.pool.course.title,
    rows,
    recycle: draft.plan.seats === 'recycle' ? draft.plan.shortfall : 0,
    notSent: draft.plan.rows.length - draft.plan.ready,
    seatsFree: draft.plan.seatsFree,
    ...(draft.endDate ? { endDate: draft.endDate } : {}),
  };
}
