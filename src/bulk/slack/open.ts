/**
 * Opening the bulk-assign modal, from `/licenses bulk` or the Home tab's button: the role first (a
 * Slack call, cached), then views.open with a loading view at once (the trigger_id lives 3 s), and
 * only then the licensing read, whose answer replaces the loading view (design.md section 2).
 */

import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs, webApi } from '@slack/bolt';
import { listPools } from '../../browse/index.js';
import { buildNoticeMessage, withSandboxMarkerView } from '../../kernel/blocks/common.js';
import { buildOutcomeModal } from '../../kernel/blocks/outcome.js';
import { withScope } from '../../kernel/services/request-scope.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { authorize, type Refused, refusalMessage } from '../../kernel/slack/gate.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { tellByDm } from '../../kernel/slack/notices.js';
import { presentError } from '../../kernel/slack/present.js';
import { updateView } from '../../kernel/slack/slack-io.js';
import { buildBulkFormModal, buildBulkLoadingModal, buildBulkNoticeModal } from '../blocks/bulk-form.js';

export const BULK_NOT_SET_UP = 'Bulk assignment is not set up in this License Desk process.';

/** Why the modal did not open; `triggerUsed`: views.open was tried and failed, so the trigger_id is spent. */
export interface BulkOpenProblem {
  sentence: string;
  triggerUsed: boolean;
  /** The gate refused (its sentence is mrkdwn: it names whom to ask); told as the gate tells it. */
  refused?: Refused;
}

/** Resolves with a problem for the caller to show when the modal could not be opened. */
export async function openBulkModal(
  deps: AppDeps,
  client: webApi.WebClient,
  triggerId: string,
  userId: string,
): Promise<BulkOpenProblem | undefined> {
  const verdict = await authorize(deps, client, userId, 'admin');
  // The gate's sentence: it names whom to ask (or says Slack was too busy to tell).
  if (!verdict.allowed) return { sentence: verdict.text, triggerUsed: false, refused: verdict };
  if (!deps.desk) return { sentence: BULK_NOT_SET_UP, triggerUsed: false };
  // The form offers the pools of the person's scope (request-scope.ts), from a command or from Home.
  return withScope(verdict.scope, () => openForm(deps, client, triggerId));
}

async function openForm(
  deps: AppDeps,
  client: webApi.WebClient,
  triggerId: string,
): Promise<BulkOpenProblem | undefined> {
  let viewId: string | undefined;
  try {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: withSandboxMarkerView(buildBulkLoadingModal(undefined, limitWait(deps)), deps.sandbox),
    });
    viewId = opened.view?.id;
  } catch (error) {
    deps.logger.warn('views.open failed', { error: String(error) });
    return { sentence: 'Slack did not open the window in time; please try again.', triggerUsed: true };
  }
  if (!viewId) return undefined;
  let view: ReturnType<typeof buildBulkFormModal>;
  try {
    view = buildBulkFormModal(await listPools(deps.licensing), deps.now());
  } catch (error) {
    deps.logger.warn('bulk: reading pools failed', { error: String(error) });
    view = buildBulkNoticeModal(presentError(error, 'other', 'admin'));
  }
  await updateView(deps, client, viewId, view);
  return undefined;
}

/**
 * The Home tab's "Bulk assign": a refusal is shown in a small modal (a Home click has no response_url),
 * or by DM when the trigger_id is spent (a failed views.open) or that modal would not open either.
 */
export function createBulkOpenHandler(deps: AppDeps) {
  return async ({ ack, body, client }: SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs) => {
    await ack();
    const problem = await openBulkModal(deps, client, body.trigger_id, body.user.id);
    if (!problem) return;
    const shown =
      !problem.triggerUsed &&
      (await client.views
        .open({
          trigger_id: body.trigger_id,
          view: withSandboxMarkerView(
            problem.refused
              ? buildOutcomeModal({
                  title: 'Bulk assign',
                  tone: problem.refused.reason === 'slack-busy' ? 'failed' : 'refused',
                  headline: problem.sentence,
                })
              : buildBulkNoticeModal(problem.sentence),
            deps.sandbox,
          ),
        })
        .then(() => true)
        .catch((error: unknown) => {
          deps.logger.warn('views.open failed', { error: String(error) });
          return false;
        }));
    if (!shown) {
      const message = problem.refused ? refusalMessage(problem.refused) : buildNoticeMessage(problem.sentence);
      await tellByDm(deps, client, body.user.id, message);
    }
  };
}
