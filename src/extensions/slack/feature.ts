/**
 * Asking for more time as the composition root sees it (kernel/slack/feature.ts): the learner's
 * button, form and the approvers' card always, and with records the notices, the end-date write it
 * settles after a kill, the reminder and expiry check and its stop.
 */
import { type Feature, noticeRenderers } from '../../kernel/slack/feature.js';
import { EXTENSION_NOTICE_KINDS } from '../domain/extensions.js';
import { registerExtensions } from './index.js';
import type { ExtensionsFeature } from './start.js';

export function extensionsFeature(composed: ExtensionsFeature | undefined): Feature {
  const listeners: Feature = { name: 'extensions', register: registerExtensions };
  if (!composed) return listeners;
  return {
    ...listeners,
    notices: noticeRenderers(EXTENSION_NOTICE_KINDS, async (_client, notice, steps) => {
      await composed.deliver(notice, steps);
    }),
    writes: { [composed.intentKind]: (intent) => composed.settle(intent) },
    start: (mode) => (mode === 'all' ? composed.start() : undefined),
    stop: () => composed.stop(),
  };
}
