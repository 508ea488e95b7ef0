/**
 * Bulk assign as the composition root sees it (kernel/slack/feature.ts): its modal and buttons. Its jobs
 * run on the desk (home/slack/feature.ts), which resumes the unfinished ones at start.
 */
import type { Feature } from '../../kernel/slack/feature.js';
import { registerBulk } from './index.js';

export function bulkFeature(): Feature {
  return { name: 'bulk', register: registerBulk };
}
