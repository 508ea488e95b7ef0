/** What every use case of leavers is given (composed in slack/start.ts). */
import type { SeatReturnJobOptions } from '../../changes/index.js';
import type { LeaverHolds } from '../db/holds.js';
import type { LeaverSettings } from '../domain/leavers.js';

export interface LeaversOptions extends SeatReturnJobOptions {
  settings: LeaverSettings;
  /** Tells the return job that a hold is due now (LEAVER_GRACE_DAYS=0). */
  kick?: () => void;
}

export interface LeaversContext extends LeaversOptions {
  store: LeaverHolds;
}
