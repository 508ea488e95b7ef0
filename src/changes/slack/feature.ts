/**
 * Assign, extend, revoke and recycle as the composition root sees them (kernel/slack/feature.ts): their
 * buttons, modals and shortcuts always, and with records the admin's writes a killed process left in
 * flight, each settled by reading back and told to the admin by DM (docs/records.md, "Writes in flight").
 */
import type { AuditLog } from '../../kernel/services/audit.js';
import { createWriteSettlers } from '../../kernel/services/writes/settle.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { Feature } from '../../kernel/slack/feature.js';
import { isSettledWriteNotice, sendSettledWriteNotice } from '../../kernel/slack/writes/settling.js';
import { registerActions } from './actions/index.js';
import { registerShortcuts } from './shortcuts/index.js';
import { registerViews } from './views/index.js';

export function changesFeature(deps: AppDeps, audit: AuditLog): Feature {
  const listeners: Feature = {
    name: 'changes',
    register(app, surface) {
      registerActions(app, surface);
      registerViews(app, surface);
      registerShortcuts(app, surface);
    },
  };
  const { records, intents, outbox } = deps;
  if (!records || !intents || !outbox) return listeners;
  return {
    ...listeners,
    writes: createWriteSettlers({ licensing: deps.licensing, audit, records, intents, outbox, now: deps.now }),
    notices: {
      'settled-write': async (client, notice) => {
        if (!isSettledWriteNotice(notice)) throw new Error('a settled-write notice without its admin');
        await sendSettledWriteNotice(client, notice, deps.sandbox);
      },
    },
  };
}
