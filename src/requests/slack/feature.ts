/**
 * Course requests and the waitlist as the composition root sees them (kernel/slack/feature.ts): their
 * listeners always (without records they answer that requests are off), and with records their
 * notices, the assign they settle after a kill, the reminder and waitlist checks, and their stop.
 */
import { type Feature, noticeRenderers } from '../../kernel/slack/feature.js';
import { REQUEST_NOTICE_KINDS } from '../domain/requests.js';
import { registerRequests } from './index.js';
import type { RequestsFeature } from './start.js';
import { registerWaitlist } from './waitlist/index.js';

export function requestsFeature(composed: RequestsFeature | undefined): Feature {
  const listeners: Feature = {
    name: 'requests',
    register(app, surface) {
      registerWaitlist(app, surface);
      registerRequests(app, surface);
    },
  };
  if (!composed) return listeners;
  return {
    ...listeners,
    notices: noticeRenderers(REQUEST_NOTICE_KINDS, async (_client, notice, steps) => {
      await composed.deliver(notice, steps);
    }),
    writes: { [composed.intentKind]: (intent) => composed.settle(intent) },
    start: (mode) => (mode === 'all' ? composed.start() : undefined),
    stop: () => composed.stop(),
  };
}
