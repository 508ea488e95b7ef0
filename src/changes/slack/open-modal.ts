/**
 * Opening the assign and change-end-date modals (design.md section 2, shape 2): views.open with a
 * loading view at once (the trigger_id lives 3 s), then the licensing reads at interactive priority,
 * then views.update with the form. Callers have acknowledged and passed the gate already.
 */
import type { webApi } from '@slack/bolt';
import { getLicenseDetails, getMe, listPools } from '../../browse/index.js';
import { CallbackId } from '../../kernel/blocks/ids.js';
import { buildLoadingModal } from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn } from '../../kernel/blocks/mrkdwn.js';
import { buildOutcomeModal } from '../../kernel/blocks/outcome.js';
import { assignFormMeta, endDateFormMeta } from '../../kernel/blocks/values.js';
import { endDateBlocker } from '../../kernel/domain/end-date.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { limitWait } from '../../kernel/slack/limit-wait.js';
import { presentError, type Subject } from '../../kernel/slack/present.js';
import { openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { ASSIGN_TITLE, type AssignPrefill, buildAssignModal } from '../blocks/assign-modal.js';
import { buildExtendBlockedModal, buildExtendModal, EXTEND_TITLE } from '../blocks/extend-modal.js';

type Client = webApi.WebClient;

export interface OpenContext {
  triggerId: string;
  /** Where the one-sentence reply goes after the change, if anywhere. */
  channelId: string | undefined;
  /** The assign form frees a seat for this course request ("Free a seat…" on its card). */
  requestId?: string | undefined;
}

async function failed(deps: AppDeps, client: Client, viewId: string, title: string, error: unknown, subject: Subject) {
  deps.logger.warn('could not fill the modal', { title, error: String(error) });
  const headline = escapeMrkdwn(presentError(error, subject, 'admin'));
  await updateView(deps, client, viewId, buildOutcomeModal({ title, tone: 'failed', headline }));
}

/**
 * Opens the loading view, then fills it with `fill`; a read that fails shows the failure modal instead.
 * False when Slack would not open the modal (an expired trigger_id): the caller tells the person.
 */
async function openThenFill(
  deps: AppDeps,
  client: Client,
  ctx: OpenContext,
  how: { title: string; reading: string; subject: Subject },
  fill: (viewId: string) => Promise<void>,
): Promise<boolean> {
  const loading = buildLoadingModal(CallbackId.changeInfo, how.title, how.reading, limitWait(deps));
  const viewId = await openView(deps, client, ctx.triggerId, loading);
  if (!viewId) return false;
  try {
    await fill(viewId);
  } catch (error) {
    await failed(deps, client, viewId, how.title, error, how.subject);
  }
  return true;
}

export function openAssignModal(
  from: Surface,
  client: Client,
  ctx: OpenContext,
  prefill: AssignPrefill,
): Promise<boolean> {
  const { deps, state } = from;
  const how = {
    title: ASSIGN_TITLE,
    reading: 'Reading your pools',
    subject: prefill.poolId ? 'pool' : 'other',
  } as const;
  return openThenFill(deps, client, ctx, how, async (viewId) => {
    // Both reads come from the client's cache when fresh (30 s), so reopening the form is free.
    const [pools, me] = await Promise.all([listPools(deps.licensing), getMe(deps.licensing)]);
    state.snapshots.set(viewId, {
      kind: 'assign',
      pools,
      allowedDomains: me.allowedDomainsForTransferableLicenses,
    });
    const privateMetadata = assignFormMeta.encode({ channelId: ctx.channelId, requestId: ctx.requestId });
    await updateView(deps, client, viewId, buildAssignModal({ pools, prefill, privateMetadata, now: deps.now() }));
  });
}

export function openExtendModal(
  from: Surface,
  client: Client,
  ctx: OpenContext,
  licenseId: string,
  initialDate: string | undefined,
): Promise<boolean> {
  const { deps, state } = from;
  const how = { title: EXTEND_TITLE, reading: 'Reading the license', subject: 'license' } as const;
  return openThenFill(deps, client, ctx, how, async (viewId) => {
    const { license, pool } = await getLicenseDetails(deps.licensing, licenseId);
    const now = deps.now();
    const blocker = endDateBlocker(license, pool, now);
    if (blocker || !pool) {
      await updateView(deps, client, viewId, buildExtendBlockedModal(license, pool, blocker ?? 'pool-unknown'));
      return;
    }
    state.snapshots.set(viewId, { kind: 'extend', license, pool });
    const privateMetadata = endDateFormMeta.encode({ channelId: ctx.channelId, licenseId: license.id });
    const form = buildExtendModal({ license, pool, privateMetadata, now, ...(initialDate ? { initialDate } : {}) });
    await updateView(deps, client, viewId, form);
  });
}
