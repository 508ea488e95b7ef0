/** What the course-request surfaces need from the composition root (src/slack/requests/start.ts builds it). */
import type { RequestStore, RequestTimers } from '../../domain/requests.js';
import type { RequestCheck } from '../../services/requests/check.js';
import type { RequestService } from '../../services/requests/service.js';

export interface RequestsDeps {
  store: RequestStore;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin (LICENSE_ADMINS user ids) by DM. */
  channel?: string | undefined;
  timers: RequestTimers;
  service: RequestService;
  /** The reminder and expiry check (started by the composition root; tests call tick()). */
  check: RequestCheck;
}
