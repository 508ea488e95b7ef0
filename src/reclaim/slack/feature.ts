/**
 * Reclaim rounds as the composition root sees them (kernel/slack/feature.ts): their listeners always,
 * and with records the holders' and admin's notices, the round job and its stop.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { RECLAIM_NOTICE_KINDS } from '../domain/reclaim.js';
import { registerReclaim } from './index.js';
import type { ReclaimFeature } from './start.js';

export function reclaimFeature(composed: ReclaimFeature | undefined): Feature {
  return featureOf('reclaim', registerReclaim, RECLAIM_NOTICE_KINDS, composed);
}
