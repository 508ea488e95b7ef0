/**
 * Reclaim rounds as the composition root sees them (kernel/slack/feature.ts): their listeners always,
 * and with records the holders' and admin's notices, the round job and its stop.
 */
import { type Feature, noticeRenderers } from '../../kernel/slack/feature.js';
import { RECLAIM_NOTICE_KINDS } from '../domain/reclaim.js';
import { registerReclaim } from './index.js';
import type { ReclaimFeature } from './start.js';

export function reclaimFeature(composed: ReclaimFeature | undefined): Feature {
  const listeners: Feature = { name: 'reclaim', register: registerReclaim };
  if (!composed) return listeners;
  return {
    ...listeners,
    notices: noticeRenderers(RECLAIM_NOTICE_KINDS, async (_client, notice) => {
      await composed.deliver(notice);
    }),
    start: (mode) => (mode === 'all' ? composed.start() : undefined),
    stop: () => composed.stop(),
  };
}
