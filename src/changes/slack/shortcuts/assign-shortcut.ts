/**
 * The global shortcut "Assign a course license": ack, the gate, then the assign modal. A shortcut has
 * no channel and no response_url, so a refusal is a small modal of its own (gate.ts onShortcut).
 */

import { onShortcut } from '../../../kernel/slack/gate.js';
import type { Surface } from '../../../kernel/slack/state.js';
import { ASSIGN_TITLE } from '../../blocks/assign-modal.js';
import { openAssignModal } from '../open-modal.js';

export function createAssignShortcutHandler(s: Surface) {
  const gate = { need: 'admin' as const, title: ASSIGN_TITLE, audit: { action: 'assign' as const, via: '(shortcut)' } };
  return onShortcut(s, gate, async ({ shortcut, client }) => {
    await openAssignModal(s, client, { triggerId: shortcut.trigger_id, channelId: undefined }, {});
  });
}
