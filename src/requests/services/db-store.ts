/**
 * The requests store moved to the feature's db layer (src/requests/db/request-store.ts); this keeps
 * the old import path for the callers outside the feature's folders that still use it.
 */

export {
  createDbRequestStore,
  type DbRequestStore,
  type DbRequestStoreOptions,
  unreadableRequests,
  type WaitlistStore,
} from '../db/request-store.js';
export { entryOfRequest } from '../domain/waitlist.js';
