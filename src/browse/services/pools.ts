/** Reading pools and their licenses. `pools.list` and `pools.get` come from the client's read cache. */
import type { License, Pool } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';

export const LIST_PAGE_SIZE = 10;

/** Sorted by course title, then end, so that pages stay stable between clicks. */
export async function listPools(licensing: LicensingClient): Promise<Pool[]> {
  const pools = await licensing.pools.list(INTERACTIVE);
  return [...pools].sort(
    (a, b) => a.course.title.localeCompare(b.course.title) || a.end.localeCompare(b.end) || a.id.localeCompare(b.id),
  );
}

export interface LicensePage {
  licenses: License[];
  page: number;
  /** The API gives no totals: a full page means there may be a next one. */
  hasNext: boolean;
}

export interface PoolLicensesPage extends LicensePage {
  pool: Pool;
}

export async function getPoolLicensesPage(
  licensing: LicensingClient,
  poolId: string,
  page: number,
  includeInactive: boolean,
): Promise<PoolLicensesPage> {
  // The pool first: a wrong id then fails with one 404 instead of two requests.
  const pool = await licensing.pools.get(poolId, INTERACTIVE);
  const licenses = await licensing.pools.licenses(
    poolId,
    { page, pageSize: LIST_PAGE_SIZE, includeInactive },
    INTERACTIVE,
  );
  // Active only: the pool's assigned count is the exact total, so no empty "next" page is offered.
  const hasNext = includeInactive
    ? licenses.length >= LIST_PAGE_SIZE
    : licenses.length >= LIST_PAGE_SIZE && page * LIST_PAGE_SIZE < pool.assignedLicenses;
  return { pool, licenses, page, hasNext };
}

export interface LicenseListPage extends LicensePage {
  poolsById: Map<string, Pool>;
}

export async function getLicensesPage(
  licensing: LicensingClient,
  page: number,
  includeInactive: boolean,
): Promise<LicenseListPage> {
  const licenses = await licensing.licenses.list({ page, pageSize: LIST_PAGE_SIZE, includeInactive }, INTERACTIVE);
  const pools = await licensing.pools.list(INTERACTIVE);
  return {
    licenses,
    page,
    hasNext: licenses.length >= LIST_PAGE_SIZE,
    poolsById: new Map(pools.map((p) => [p.id, p])),
  };
}
