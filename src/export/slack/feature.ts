/**
 * The CSV export as the composition root sees it (kernel/slack/feature.ts): nothing of its own to
 * register, run or settle. `/licenses export` answers through the /licenses router (app/commands).
 */
import type { Feature } from '../../kernel/slack/feature.js';

export function exportFeature(): Feature {
  return { name: 'export' };
}
