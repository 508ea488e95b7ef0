/**
 * What an entry records: the license changes, the steps of a course request (requested, approved
 * or denied, waitlisted, moved in or removed from the waitlist, assigned from the waitlist, expired,
 * cancelled), a mass change held for a second admin (held, approved, rejected, expired, or sent alone
 * where nobody else could approve it), and `command`: a typed `/licenses` command the gate refused (one that would change
 * something or show student data; the subcommand in `command`).
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
  'reclaim-kept',
  'reclaim-released',
  'auto-returned',
  'leaver-returned',
  'returned',
  'escalated',
  'delegated',
  'command',
  // Roles kept in the database (docs/roles-and-approvals.md): an owner gave or took a role.
  'role-given',
  'role-taken',
  'mass-change-held',
  'mass-change-approved',
  'mass-change-rejected',
  'mass-change-expired',
  'mass-change-alone',
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
  /** An automatic return of a finished seat: the day the course was completed (YYYY-MM-DD). */
  completedOn?: string;
  /** A refused typed command: the subcommand's name (`show`, `bulk`), never the words typed after it. */
  command?: string;
  /** A decision a delegate made while the approver was away: the approver's Slack user id ("for <@A>"). */
  onBehalfOf?: string;
  /** A delegation: the delegate's Slack user id, and its days (YYYY-MM-DD). */
  delegate?: string;
  fromDay?: string;
  untilDay?: string;
  /** A waitlist step: the request's place in line after it. */
  place?: number;
  /** A role given or taken: to whom (a user id U…/W… or a user group S…), which role, on which pools (words). */
  subject?: string;
  role?: 'admin' | 'viewer';
  scope?: string;
  /** Why it was refused or failed, or a fact the sentence does not hold; never an escaped mention or an id
   *  a person cannot use. */
  detail?: string;
  /** Log line and file only, no channel post: a bulk job's rows (the job posts one summary instead,
   *  since a 500-line job would otherwise flood the channel at Slack's ~1 message per second). */
  quiet?: boolean;
}

const ACTIONS = new Set<string>(AUDIT_ACTIONS);
const OUTCOMES = new Set<string>(['done', 'refused', 'failed', 'unknown']);

/**
 * An object with the four facts every entry has (`at`, `actor`, `action`, `outcome` as text), or
 * undefined: what an import accepts as an entry. An action this version does not know (written by a
 * newer one) is still an entry; `readAuditEntry` decides whether it can be shown.
 */
export function asAuditRecord(
  value: unknown,
): (Record<string, unknown> & Pick<AuditEntry, 'at' | 'actor'>) | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const e = value as Record<string, unknown>;
  const text = (k: string) => typeof e[k] === 'string' && e[k] !== '';
  return text('at') && text('actor') && text('action') && text('outcome')
    ? (e as Record<string, unknown> & Pick<AuditEntry, 'at' | 'actor'>)
    : undefined;
}

/** An entry this version can show (known action and outcome), from its JSON; otherwise undefined. */
export function readAuditEntry(json: string): AuditEntry | undefined {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  const e = asAuditRecord(value);
  return e && ACTIONS.has(String(e.action)) && OUTCOMES.has(String(e.outcome))
    ? (e as unknown as AuditEntry)
    : undefined;
}

/** The audit actor of what License Desk does on its own authority. */
export const APP_ACTOR = 'license-desk';
