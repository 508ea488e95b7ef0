/**
 * What an entry records: the license changes, and the steps of a course request (requested, approved
 * or denied, waitlisted, moved in or removed from the waitlist, assigned from the waitlist, expired,
 * cancelled).
 */
export const AUDIT_ACTIONS = [
  'assign',
  'recycle',
  'extend',
  'revoke',
  'bulk-assign',
  'requested',
  'approved',
  'denied',
  'waitlisted',
  'waitlist-moved',
  'waitlist-removed',
  'assigned',
  'expired',
  'cancelled',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** One entry of the audit trail: who did what to which license, and how it ended (docs/audit-trail.md). */
export interface AuditEntry {
  at: string /* ISO */;
  actor: string /* Slack user id */;
  action: AuditAction;
  outcome: 'done' | 'refused' | 'failed' | 'unknown';
  poolId?: string;
  licenseId?: string;
  courseTitle?: string;
  studentName?: string;
  studentEmail?: string;
  /** Slack user id of the person whose course request the entry is about (shown as a mention). */
  requester?: string;
  /** The course request's id, or the bulk job's: for the log and the file, never shown to people. */
  requestId?: string;
  jobId?: string;
  /** An end-date change: the day the license ended before, and the day asked for (YYYY-MM-DD). */
  previousEndDate?: string;
  endDate?: string;
  /** A waitlist step: the request's place in line after it. */
  place?: number;
  /** Why it was refused or failed, or a fact the sentence does not hold; never an escaped mention or an id
   *  a person cannot use. */
  detail?: string;
  /** Log line and file only, no channel post: a bulk job's rows (the job posts one summary instead,
   *  since a 500-line job would otherwise flood the channel at Slack's ~1 message per second). */
  quiet?: boolean;
}
