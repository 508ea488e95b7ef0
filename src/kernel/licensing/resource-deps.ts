/** What every resource file receives from createLicensingClient (index.ts). */
import type { ReadCache } from './cache.js';
import type { Paginator } from './paginate.js';
import type { Requester } from './request.js';

export interface ResourceDeps {
  request: Requester;
  cache: ReadCache;
  paginator: Paginator;
}
