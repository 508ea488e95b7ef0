/**
 * Leavers as the composition root sees them (kernel/slack/feature.ts): with records and the setting on,
 * Slack's `user_change` event, the alert channel's posts, the returns after the grace and the weekly
 * sweep, and their stop. Its App Home section is chained by the root with the other sections.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { LEAVER_NOTICE_KINDS } from '../domain/leavers.js';
import { createUserChangeHandler } from './events.js';
import type { LeaversFeature } from './start.js';

export function leaversFeature(composed: LeaversFeature | undefined): Feature {
  if (!composed) return { name: 'leavers' };
  const register: Feature['register'] = (app, surface) => {
    // A member deactivated or back (docs/leavers-and-offers.md#leavers).
    app.event('user_change', createUserChangeHandler(surface.deps, composed));
  };
  return featureOf('leavers', register, LEAVER_NOTICE_KINDS, composed);
}
