/** One entry of the audit trail: who did what to which license, and how it ended (docs/audit-trail.md). */
export interface AuditEntry {
  at: string /* ISO */;
  actor: string /* Slack user id */;
  action:
    | 'assign'
    | 'recycle'
    | 'extend'
    | 'revoke'
    | 'bulk-assign'
    // The steps of a self-service course request (docs/course-requests.md); the assign itself is 'assign'.
    | 'request'
    | 'request-approve'
    | 'request-deny'
    | 'request-waitlist'
    | 'request-expire'
    | 'request-cancel';
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
