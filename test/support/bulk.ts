/**
 * Bulk assign as the bulk tests drive it: the form's values as Slack sends them back, and jobs as the
 * tests store them (a running job of pool 101 and its pending rows).
 */

import type { BulkJob } from '../../src/bulk/domain/bulk-job.js';
import { BulkInputId } from '../../src/kernel/blocks/ids.js';
import { NOW } from './fixtures.js';

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

/** The bulk form as Slack sends it back on submission: state.values keyed by block and action id. */
export function bulkFormValues(poolId: string, lists: string[], endDate?: string) {
  const values: Record<string, Record<string, unknown>> = {
    [BulkInputId.pool.block]: {
      [BulkInputId.pool.action]: {
        type: 'static_select',
        selected_option: { value: poolId, text: { type: 'plain_text', text: poolId } },
      },
    },
    [BulkInputId.endDate.block]: {
      [BulkInputId.endDate.action]: { type: 'datepicker', selected_date: endDate ?? null },
    },
  };
  for (let i = 1; i <= 5; i++) {
    const id = BulkInputId.list(i);
    values[id.block] = { [id.action]: { type: 'plain_text_input', value: lists[i - 1] ?? null } };
  }
  return values;
}
