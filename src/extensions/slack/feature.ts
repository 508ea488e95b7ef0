/**
 * Asking for more time as the composition root sees it (kernel/slack/feature.ts): the learner's
 * button, form and the approvers' card always, and with records the notices, the end-date write it
 * settles after a kill, the reminder and expiry check and its stop.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { EXTENSION_NOTICE_KINDS } from '../domain/extensions.js';
import { registerExtensions } from './index.js';
import type { ExtensionsFeature } from './start.js';

export function extensionsFeature(composed: ExtensionsFeature | undefined): Feature {
  return featureOf('extensions', registerExtensions, EXTENSION_NOTICE_KINDS, composed);
}
