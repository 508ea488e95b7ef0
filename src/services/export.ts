/**
 * `/licenses export [poolId]`: every license (inactive included) of the account or
 * of one pool, as CSV. Cost, at 100 items a page: one request per 100 licenses, one per 100 students
 * for the course progress (GET /v1/students carries each course's licenseId, progress and completion),
 * and the pools list (usually from the cache). A person is waiting for the file: interactive priority.
 */
import { type CsvValue, toCsv } from '../domain/csv.js';
import { dayOf } from '../domain/end-date.js';
import { licenseStatus } from '../domain/license-status.js';
import type { License, Pool } from '../domain/types.js';
import { NotFoundError } from '../licensing/errors.js';
import type { LicensingClient } from '../licensing/types.js';
import { INTERACTIVE } from './interactive.js';

export const EXPORT_HEADER = [
  'student',
  'email',
  'course',
  'pool',
  'license',
  'start',
  'end',
  'status',
  'progress',
  'completed',
] as const;

export interface LicenseExport {
  csv: string;
  rows: number;
  filename: string;
  /** The pool, when the export was for one. */
  pool?: Pool;
}

const day = (iso: string | null | undefined) => (iso ? dayOf(iso) : '');

export async function exportLicenses(
  licensing: LicensingClient,
  opts: { poolId?: string | undefined; now: Date },
): Promise<LicenseExport> {
  // One pools read serves both the pool's own check and every row's course title.
  const pools = new Map((await licensing.pools.list(INTERACTIVE)).map((p) => [p.id, p]));
  const pool = opts.poolId === undefined ? undefined : pools.get(opts.poolId);
  if (opts.poolId !== undefined && !pool) throw new NotFoundError({ endpoint: 'GET /v1/pool/{id}' });
  const licenses: License[] = pool
    ? await licensing.pools.allLicenses(pool.id, { includeInactive: true }, INTERACTIVE)
    : await licensing.licenses.all({ includeInactive: true }, INTERACTIVE);
  const progress = new Map<string, { progress: number; completed: string | null; title: string }>();
  if (licenses.length > 0) {
    for (const s of await licensing.students.all({ includeInactive: true }, INTERACTIVE)) {
      for (const c of s.courses)
        progress.set(c.licenseId, { progress: c.progress, completed: c.completed, title: c.title });
    }
  }
  const rows = [...licenses]
    .sort((a, b) => a.poolId.localeCompare(b.poolId, 'en', { numeric: true }) || a.start.localeCompare(b.start))
    .map((l): CsvValue[] => {
      const p = progress.get(l.id);
      return [
        l.student.name,
        l.student.email,
        pools.get(l.poolId)?.course.title ?? p?.title ?? `course ${l.courseId}`,
        l.poolId,
        l.id,
        day(l.start),
        day(l.end),
        licenseStatus(l, opts.now),
        p ? p.progress : null,
        day(p?.completed),
      ];
    });
  const stamp = opts.now.toISOString().slice(0, 10);
  return {
    csv: toCsv(EXPORT_HEADER, rows),
    rows: rows.length,
    filename: pool ? `licenses-pool-${pool.id.replace(/[^\w-]/g, '_')}-${stamp}.csv` : `licenses-${stamp}.csv`,
    ...(pool ? { pool } : {}),
  };
}
