/**
 * Course requests and the waitlist as the composition root sees them (kernel/slack/feature.ts): their
 * listeners always (without records they answer that requests are off), and with records their
 * notices (the waitlist's offers among them), the assign they settle after a kill, the reminder, waitlist
 * and offer checks, and their stop.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { OFFER_NOTICE_KINDS } from '../domain/offers.js';
import { REQUEST_NOTICE_KINDS } from '../domain/requests.js';
import { registerRequests } from './index.js';
import type { RequestsFeature } from './start.js';
import { registerWaitlist } from './waitlist/index.js';

export function requestsFeature(composed: RequestsFeature | undefined): Feature {
  const register: Feature['register'] = (app, surface) => {
    registerWaitlist(app, surface);
    registerRequests(app, surface);
  };
  return featureOf('requests', register, [...REQUEST_NOTICE_KINDS, ...OFFER_NOTICE_KINDS], composed);
}
