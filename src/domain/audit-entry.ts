/**
 * What an entry records: the license changes, and the steps of a course request (requested, approved
 * or denied, waitlisted, assigned from the waitlist, expired, cancelled).
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
  detail?: string;
  /** Log line and file only, no channel post: a bulk job's rows (the job posts one summary instead,
   *  since a 500-line job would otherwise flood the channel at Slack's ~1 message per second). */
  quiet?: boolean;
}
