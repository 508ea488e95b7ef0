/**
 * Browsing as the composition root sees it (kernel/slack/feature.ts): nothing of its own to register,
 * run or settle. Its reads answer through the /licenses router (app/commands), which takes its
 * subcommands from this feature's face.
 */
import type { Feature } from '../../kernel/slack/feature.js';

export function browseFeature(): Feature {
  return { name: 'browse' };
}
