/** What the course-request surfaces need from the composition root (src/main.ts, the test harness). */
import type { RequestStore, RequestTimers, Waitlist } from '../../domain/requests.js';
import type { RequestCheck } from '../../services/requests/check.js';
import type { RequestService } from '../../services/requests/service.js';

export interface RequestsDeps {
  store: RequestStore;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin (LICENSE_ADMINS user ids) by DM. */
  channel?: string | undefined;
  timers: RequestTimers;
  /** The waitlist of approved requests for full pools, when there is one. */
  waitlist?: Waitlist | undefined;
  /** Filled in by registerRequests over the app's own client. */
  service?: RequestService;
  /** The reminder and expiry check; filled in by registerRequests, started by main.ts. */
  check?: RequestCheck;
}
