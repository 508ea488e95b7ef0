/**
 * A license picked in the recycle confirmation (its select sends the pick at once: dispatch_action).
 * The confirmation is rebuilt to name that license, with its student's course progress (one GET
 * /v1/student), so the license "End it and assign" ends is the one the modal names. Nothing is
 * written here: the submission checks every rule again on fresh reads (services/recycle.ts).
 */
import { CallbackId } from '../../../kernel/blocks/ids.js';
import { idValue, pendingAssignMeta } from '../../../kernel/blocks/values.js';
import { type ClickArgs, onClick } from '../../../kernel/slack/gate.js';
import { updateView } from '../../../kernel/slack/slack-io.js';
import type { Snapshot, Surface } from '../../../kernel/slack/state.js';
import { buildRecycleConfirmModal } from '../../blocks/recycle-confirm.js';
import { loadProgress, loadRecycleChoice } from '../../services/recycle.js';

type RecycleSnapshot = Extract<Snapshot, { kind: 'recycle' }>;

/** The option picked in a static_select (the listener is typed for buttons, as every click). */
function pickedOf(args: ClickArgs): string | undefined {
  const action = args.action as unknown as { selected_option?: { value?: unknown } | null };
  const value = action.selected_option?.value;
  return typeof value === 'string' ? idValue.decode(value) : undefined;
}

export function createRecyclePickHandler(s: Surface) {
  return onClick(s, { need: 'admin' }, async (args) => {
    const { deps, state } = s;
    const view = args.body.view;
    if (!view || view.callback_id !== CallbackId.recycleConfirm) return;
    const meta = pendingAssignMeta.decode(view.private_metadata);
    const picked = pickedOf(args);
    if (!meta || !picked) return;
    const snap = state.snapshots.get(view.id);
    let known: RecycleSnapshot | undefined =
      snap?.kind === 'recycle' && snap.choice.pool.id === meta.poolId ? snap : undefined;
    try {
      if (!known?.choice.candidates.some((c) => c.id === picked)) {
        // Another process built the form, or the pick is not among the licenses it listed: read again.
        const choice = await loadRecycleChoice(deps.licensing, meta.poolId, deps.now());
        known = {
          kind: 'recycle',
          choice,
          newStudent: { email: meta.email, ...(meta.name ? { name: meta.name } : {}) },
        };
        state.snapshots.set(view.id, known);
      }
    } catch (error) {
      // The confirmation stays as it was; the submission reads everything again anyway.
      deps.logger.warn('recycle: could not read the pool for a picked license', {
        poolId: meta.poolId,
        error: String(error),
      });
      return;
    }
    const { choice, newStudent } = known;
    const license = choice.candidates.find((c) => c.id === picked);
    if (!license) return;
    const progress =
      license.id === choice.defaultLicense?.id ? choice.defaultProgress : await loadProgress(deps.licensing, license);
    const rebuilt = buildRecycleConfirmModal({
      ...choice,
      picked: { license, progress },
      newStudent,
      privateMetadata: view.private_metadata,
    });
    // The hash: a form submitted meanwhile (now "working" or done) is never put back.
    await updateView(deps, args.client, view.id, rebuilt, view.hash);
  });
}
