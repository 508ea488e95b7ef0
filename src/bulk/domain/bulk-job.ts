/** A bulk assignment job as it is kept: its rows, each pending, in flight or done with its outcome. */

export type RowOutcome = 'assigned' | 'already-enrolled' | 'refused' | 'failed' | 'unknown' | 'skipped';

export interface JobRow {
  line: number;
  email: string;
  name?: string;
  /** Sent with recycle: the manager confirmed freeing seats for the rows past the free ones. */
  recycle?: boolean;
  state: 'pending' | 'sending' | 'done';
  outcome?: RowOutcome;
  licenseId?: string;
  /** One plain sentence for the per-row result. */
  detail?: string;
  /** Found assigned by reading back after an unclear write or a restart. */
  recovered?: boolean;
}

export interface BulkJob {
  version: 1;
  id: string;
  /** Slack user id of the admin who started it. */
  requester: string;
  poolId: string;
  courseTitle: string;
  endDate?: string;
  createdAt: string;
  finishedAt?: string;
  state: 'running' | 'done' | 'stopped';
  /** The ready rows, in list order: the job's work. */
  rows: JobRow[];
  /** Rows the dry run set aside, reported with the results. */
  notSent: { line: number; email: string; verdict: string }[];
  /** The progress message, once posted (updated in place, also after a restart). */
  progress?: { channel: string; ts: string };
}
