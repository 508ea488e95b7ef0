/**
 * One audit entry as one sentence in Slack mrkdwn: who did what to whom (the person, the course, the
 * license). The audit channel's post and App Home's "Recent changes" both say it this way
 * (services/audit.ts, blocks/home-recent.ts). People are Slack mentions built from well-formed user
 * ids (Slack shows their names), or names in bold; every string from the API, a form or a file is
 * escaped. Internal ids (a course request's, a bulk job's) stay out: they are in the log and file only.
 */
import type { AuditEntry } from './audit-entry.js';
import { dayText } from './end-date.js';
import { escapeMrkdwn, escapeTruncated } from './mrkdwn.js';

export interface SentenceStyle {
  /** The channel may show a student's e-mail when no name is known; App Home never does. */
  emails: boolean;
}

const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

/** A person as Slack renders them: a mention of a well-formed user id, License Desk itself, or "someone". */
export function personOf(id: string | undefined): string {
  if (id === 'license-desk') return 'License Desk';
  return id && USER_ID.test(id) ? `<@${id}>` : 'someone';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The student: their name, else the requester's mention, else (channel only) their e-mail. */
function studentOf(e: AuditEntry, style: SentenceStyle): string | undefined {
  if (e.studentName) return `*${escapeTruncated(e.studentName, 80)}*`;
  if (e.requester && USER_ID.test(e.requester)) return `<@${e.requester}>`;
  if (style.emails && e.studentEmail) return escapeTruncated(e.studentEmail, 254);
  return undefined;
}

/** " for *Course*", else " from pool `2003`", else nothing. */
function courseOf(e: AuditEntry): string {
  if (e.courseTitle) return ` for *${escapeTruncated(e.courseTitle, 80)}*`;
  return e.poolId ? ` from pool \`${escapeTruncated(e.poolId, 64)}\`` : '';
}

/** "license `4001`" or "a license". */
function licenseOf(e: AuditEntry): string {
  return e.licenseId ? `license \`${escapeTruncated(e.licenseId, 64)}\`` : 'a license';
}

/**
 * "license `4001` of *Ada Lovelace* for *Course*", "license `4001`", "a license". Never "*Ada*’s":
 * Slack leaves a bold name followed by a letter or an apostrophe unrendered, asterisks and all.
 */
function heldLicense(e: AuditEntry, style: SentenceStyle): string {
  const student = studentOf(e, style);
  const license = e.licenseId ? `license \`${escapeTruncated(e.licenseId, 64)}\`` : 'license';
  const title = e.courseTitle ? ` for *${escapeTruncated(e.courseTitle, 80)}*` : '';
  if (student) return `${license} of ${student}${title}`;
  return `${e.licenseId ? license : 'a license'}${title}`;
}

/** "<@U…>'s request", "their own request" (the actor's), or "a course request". */
function requestOf(e: AuditEntry): string {
  if (!e.requester || !USER_ID.test(e.requester)) return 'a course request';
  return e.requester === e.actor ? 'their own request' : `<@${e.requester}>’s request`;
}

/** " (course request of <@U…>)" when the student is named and the entry came from a course request. */
function viaRequest(e: AuditEntry): string {
  return e.studentName && e.requester && USER_ID.test(e.requester) ? ` (course request of <@${e.requester}>)` : '';
}

/** A day as every other surface writes it ("Jan 31, 2027"); an unreadable one as it came, escaped. */
function day(d: string): string {
  return dayText(d.slice(0, 10)) || escapeMrkdwn(d.slice(0, 10));
}

/**
 * "<@U0MGR> assigned license `4001` for *Power BI* to *Ada Lovelace*", "<@U0MGR> tried to revoke
 * license `4001` of *Ada Lovelace*": one sentence, without the outcome mark, the time or the reason.
 * Most begin with the actor; a waitlist's seat and an expiry begin with the request.
 */
export function auditSentence(e: AuditEntry, style: SentenceStyle): string {
  const who = personOf(e.actor);
  const done = e.outcome === 'done';
  const tried = (what: string) => `${who} ${done ? what.replace(/^(\S+)/, (v) => PAST[v] ?? v) : `tried to ${what}`}`;
  const student = studentOf(e, style);
  const to = student ? ` to ${student}` : '';
  const course = courseOf(e);
  const title = e.courseTitle ? ` for *${escapeTruncated(e.courseTitle, 80)}*` : '';
  const place = e.place !== undefined ? ` (number ${e.place} in line)` : '';
  switch (e.action) {
    case 'assign':
      return `${tried(`assign ${done ? licenseOf(e) : 'a license'}${course}${to}`)}${viaRequest(e)}`;
    case 'recycle': {
      const where = e.courseTitle
        ? ` of *${escapeTruncated(e.courseTitle, 80)}*`
        : e.poolId
          ? ` in pool \`${escapeTruncated(e.poolId, 64)}\``
          : '';
      return done
        ? `${who} freed a seat${where} and assigned ${licenseOf(e)}${to}`
        : `${who} tried to free a seat${where}${student ? ` for ${student}` : ''}`;
    }
    case 'extend': {
      const from = e.previousEndDate ? ` from ${day(e.previousEndDate)}` : '';
      const until = e.endDate ? ` to ${day(e.endDate)}` : '';
      return tried(`change the end date of ${heldLicense(e, style)}${from}${until}`);
    }
    case 'revoke':
      return tried(`revoke ${heldLicense(e, style)}`);
    case 'bulk-assign':
      // A row names its student; the job's summary has none.
      if (student || e.studentEmail) return tried(`assign ${done ? licenseOf(e) : 'a license'}${course}${to} in bulk`);
      return done ? `${who} ran a bulk assign${course}` : `${who} tried to assign licenses${course} in bulk`;
    case 'requested':
      // A learner's ask for more time names the license it is about; a course request has none yet.
      return e.licenseId
        ? tried(`ask for more time on ${heldLicense(e, style)}${e.endDate ? ` until ${day(e.endDate)}` : ''}`)
        : tried(`request a license${course}`);
    case 'approved':
      return tried(`approve ${requestOf(e)}${title}`) + forWhom(e);
    case 'denied':
      return tried(`deny ${requestOf(e)}${title}`) + forWhom(e);
    case 'escalated':
      return `${capital(requestOf({ ...e, actor: '' }))}${title} was escalated: nobody decided it in time`;
    case 'delegated':
      return delegationSentence(e, who, done);
    case 'waitlisted':
      return tried(`put ${requestOf(e)}${title} on the waitlist`) + (done ? place : '');
    case 'waitlist-moved':
      return done
        ? `${who} moved ${requestOf(e)}${title} to number ${e.place ?? '?'} on the waitlist`
        : `${who} tried to move ${requestOf(e)}${title} on the waitlist`;
    case 'waitlist-removed':
      return tried(`remove ${requestOf(e)}${title} from the waitlist`);
    case 'assigned': {
      const request = capital(requestOf({ ...e, actor: '' }));
      const approved = e.actor === 'license-desk' || !USER_ID.test(e.actor) ? '' : `, approved by ${who}`;
      return done
        ? `${request}${title} got ${licenseOf(e)} from the waitlist when a seat freed up${approved}`
        : `${request}${title} left the waitlist without a seat${approved}`;
    }
    case 'expired':
      return done
        ? `${capital(requestOf({ ...e, actor: '' }))}${title} expired`
        : `${who} tried to expire ${requestOf(e)}${title}`;
    case 'cancelled':
      return tried(`cancel ${requestOf(e)}${title}`);
    case 'reclaim-kept':
      return `${who} chose to keep ${heldLicense(e, style)} when asked whether they are still learning`;
    case 'reclaim-released':
      return done
        ? `${who} released ${heldLicense(e, style)} in a reclaim round`
        : `${who} tried to release ${heldLicense(e, style)} in a reclaim round`;
    case 'command': {
      const cmd = `\`/licenses${e.command && /^[a-z-]{1,20}$/.test(e.command) ? ` ${e.command}` : ''}\``;
      const on = e.licenseId ? ` on ${licenseOf(e)}` : e.poolId ? ` on pool \`${escapeTruncated(e.poolId, 64)}\`` : '';
      return done ? `${who} used ${cmd}${on}` : `${who} tried to use ${cmd}${on}`;
    }
    case 'auto-returned': {
      const why = `(${e.completedOn ? `completed on ${day(e.completedOn)}, ` : 'course completed, '}automatic return)`;
      return done
        ? `${who} returned ${heldLicense(e, style)} ${why}`
        : `${who} tried to return ${heldLicense(e, style)} ${why}`;
    }
    case 'leaver-returned':
      return done
        ? `${who} returned ${heldLicense(e, style)} (returned: left the workspace)`
        : `${who} tried to return ${heldLicense(e, style)} (returned: left the workspace)`;
    case 'returned':
      return done
        ? `${who} returned ${heldLicense(e, style)} (returned by its holder)`
        : `${who} tried to return ${heldLicense(e, style)} (a return by its holder)`;
    case 'role-given':
    case 'role-taken':
      return roleSentence(e, who, done);
    default:
      return massChangeSentence(e, who, course);
  }
}

/** "<@A>’s mass change", "their own mass change": whose held bulk job or reclaim round it is. */
function massChangeOf(e: AuditEntry): string {
  if (!e.requester || !USER_ID.test(e.requester)) return 'a mass change';
  return e.requester === e.actor ? 'their own mass change' : `<@${e.requester}>’s mass change`;
}

/** A mass change held for a second admin: who submitted it, who decided (docs/roles-and-approvals.md). */
function massChangeSentence(e: AuditEntry, who: string, course: string): string {
  const done = e.outcome === 'done';
  switch (e.action) {
    case 'mass-change-held':
      return `${who} asked a second admin to approve a mass change${course}`;
    case 'mass-change-approved':
      return `${who} ${done ? 'approved' : 'tried to approve'} ${massChangeOf(e)}${course}`;
    case 'mass-change-rejected':
      return `${who} ${done ? 'rejected' : 'tried to reject'} ${massChangeOf(e)}${course}`;
    case 'mass-change-expired':
      return `${capital(massChangeOf({ ...e, actor: '' }))}${course} expired without a second admin's decision`;
    default:
      return `${who} sent a mass change${course} with nobody else to approve it`;
  }
}

/** "<@A> gave <@U> the pool admin role on pools `2001`, `2003`", "<@A> took away <!subteam^S…>’s viewer role on every pool". */
function roleSentence(e: AuditEntry, who: string, done: boolean): string {
  const subject = e.subject && /^S[A-Z0-9]{2,20}$/.test(e.subject) ? `<!subteam^${e.subject}>` : personOf(e.subject);
  const role = e.role === 'viewer' ? 'viewer' : 'admin';
  const on = e.scope ? ` on ${escapeTruncated(e.scope, 300)}` : '';
  if (e.action === 'role-given')
    return done
      ? `${who} gave ${subject} the ${role} role${on}`
      : `${who} tried to give ${subject} the ${role} role${on}`;
  return done
    ? `${who} took away the ${role} role${on} from ${subject}`
    : `${who} tried to take away the ${role} role${on} from ${subject}`;
}

/** ", decided by <@D> for <@A>": a decision a delegate made for an approver who is away. */
function forWhom(e: AuditEntry): string {
  if (!e.onBehalfOf || !USER_ID.test(e.onBehalfOf)) return '';
  return `, decided by ${personOf(e.actor)} for <@${e.onBehalfOf}>`;
}

/** A delegation's step (`detail`: waiting, accepted, refused, ended; none: set): who, to whom, which days. */
function delegationSentence(e: AuditEntry, who: string, done: boolean): string {
  const to = e.delegate && USER_ID.test(e.delegate) ? `<@${e.delegate}>` : 'a delegate';
  const days = e.fromDay && e.untilDay ? ` from ${day(e.fromDay)} until ${day(e.untilDay)}` : '';
  const whose = e.onBehalfOf && USER_ID.test(e.onBehalfOf) ? `<@${e.onBehalfOf}>’s` : 'their';
  if (!done) return `${who} tried to delegate approvals to ${to}${days}`;
  switch (e.detail) {
    case 'waiting':
      return `${who} asked to delegate their approvals to ${to}${days} (waiting for an owner’s yes)`;
    case 'accepted':
      return `${who} accepted ${whose} delegation of approvals to ${to}${days}`;
    case 'refused':
      return `${who} refused ${whose} delegation of approvals to ${to}${days}`;
    case 'ended':
      return `${who} ended ${whose} delegation of approvals to ${to}`;
    default:
      return `${who} delegated their approvals to ${to}${days}`;
  }
}

/** The past form of the verbs `tried` turns. */
const PAST: Record<string, string> = {
  assign: 'assigned',
  change: 'changed',
  revoke: 'revoked',
  request: 'requested',
  ask: 'asked',
  approve: 'approved',
  deny: 'denied',
  put: 'put',
  remove: 'removed',
  cancel: 'cancelled',
};

/** What an entry did, in a few plain words (the history's rows and its CSV): "revoked", "end date changed". */
export const ACTION_WORDS: Record<AuditEntry['action'], string> = {
  assign: 'assigned',
  recycle: 'recycled',
  extend: 'end date changed',
  revoke: 'revoked',
  'bulk-assign': 'assigned in bulk',
  requested: 'license requested',
  approved: 'request approved',
  denied: 'request denied',
  waitlisted: 'request put on the waitlist',
  'waitlist-moved': 'moved on the waitlist',
  'waitlist-removed': 'removed from the waitlist',
  assigned: 'assigned from the waitlist',
  expired: 'request expired',
  cancelled: 'request cancelled',
  'reclaim-kept': 'kept the seat when asked',
  'reclaim-released': 'seat released when asked',
  'auto-returned': 'finished seat returned automatically',
  'leaver-returned': 'returned: left the workspace',
  returned: 'returned by its holder',
  escalated: 'request escalated',
  delegated: 'approvals delegated',
  command: 'typed command',
  'role-given': 'role given',
  'role-taken': 'role taken away',
  'mass-change-held': 'mass change held for a second admin',
  'mass-change-approved': 'mass change approved',
  'mass-change-rejected': 'mass change rejected',
  'mass-change-expired': 'mass change expired',
  'mass-change-alone': 'mass change sent with nobody else to approve',
};

/** How it ended, in words. */
export const OUTCOME_WORDS: Record<AuditEntry['outcome'], string> = {
  done: 'done',
  refused: 'refused',
  failed: 'failed',
  unknown: 'outcome unknown',
};
