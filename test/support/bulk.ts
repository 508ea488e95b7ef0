/** Bulk assign jobs as the bulk tests store them: a running job of pool 101 and its pending rows. */
import type { BulkJob } from '../../src/domain/bulk-job.js';
import { NOW } from '../unit/blocks/fixtures.js';

/** Pending rows for `emails`, numbered from line 1 as the uploaded file's lines. */
export function pendingRows(emails: readonly string[]): BulkJob['rows'] {
  return emails.map((email, i) => ({ line: i + 1, email, state: 'pending' as const }));
}

/** A running bulk assign of `rows` in pool 101 (course "C"), asked by the license admin at the fixtures' NOW. */
export function runningBulkJob(id: string, rows: BulkJob['rows'], extra: Partial<BulkJob> = {}): BulkJob {
  return {
    version: 1,
    id,
    requester: 'U0MGR00001',
    poolId: '101',
    courseTitle: 'C',
    createdAt: NOW.toISOString(),
    state: 'running',
    rows,
    notSent: [],
    ...extra,
  };
}
