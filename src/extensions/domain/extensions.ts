/**
 * Extension requests ("Ask for more time", docs/learners.md, "Ask for more time"): a learner asks for a later end
 * date of a license they hold, the approvers of course requests decide. The types and the pure rules;
 * every rule takes `now`.
 */
import { dayOf, dayText, today } from '../../kernel/domain/end-date.js';

/** A day (YYYY-MM-DD) as people read it: "Mar 4, 2027". */
export const shownDay = (day: string) => dayText(`${day}T00:00:00Z`);

/**
 * `extending`: Approve's end-date write is recorded (an open intent) and being sent; it never claims
 * the outcome. It ends approved, or pending again (the write did not happen), also after a crash.
 */
export type ExtensionStatus = 'pending' | 'extending' | 'approved' | 'denied' | 'expired';

const STATUSES: readonly ExtensionStatus[] = ['pending', 'extending', 'approved', 'denied', 'expired'];

/** A copy of the approvers' card: a channel post or one approver's DM. */
export interface ExtensionCard {
  channel: string;
  ts: string;
}

export interface ExtensionRequest {
  id: string;
  /** Slack user id of the learner. */
  requester: string;
  /** Their Slack e-mail when they asked: the license's student e-mail. */
  requesterEmail: string;
  licenseId: string;
  poolId: string;
  courseTitle: string;
  /** The pool's end (ISO): no end date may pass it. */
  poolEnd: string;
  /** The license's end when they asked (ISO). */
  currentEnd: string;
  /** The end date asked for (YYYY-MM-DD). */
  endDate: string;
  reason: string;
  createdAt: string;
  status: ExtensionStatus;
  decidedBy?: string;
  decidedAt?: string;
  denyReason?: string;
  cards: ExtensionCard[];
  /** When the approvers were reminded (ISO): once. */
  remindedAt?: string;
  /** While `extending`: the write's open intent, who approved and when it began. */
  extending?: { intentId: string; by: string; at: string };
  /** Why the last approval changed nothing (shown on the card of a pending request). */
  lastProblem?: string;
}

/** The intent kind of Approve's end-date write (settled after a kill by reading the license back). */
export const EXTENSION_INTENT = 'extension-end-date';

/** A stored request as JSON, or undefined when it cannot be read. */
export function readStoredExtension(body: string): ExtensionRequest | undefined {
  try {
    const v = JSON.parse(body) as Partial<ExtensionRequest> | null;
    const ok =
      v !== null &&
      typeof v === 'object' &&
      typeof v.id === 'string' &&
      typeof v.requester === 'string' &&
      typeof v.licenseId === 'string' &&
      typeof v.endDate === 'string' &&
      STATUSES.includes(v.status as ExtensionStatus) &&
      Array.isArray(v.cards);
    return ok ? (v as ExtensionRequest) : undefined;
  } catch {
    return undefined;
  }
}

/** What people are told, queued in the outbox with the change it tells of. */
export type ExtensionNotice =
  /** A new request: the approvers' cards (their copies saved on it), then the learner's "sent" DM. */
  | { kind: 'extension-received'; extensionId: string }
  /** Every card copy shows the request as it is; the learner hears an outcome (approved, denied, expired) once. */
  | { kind: 'extension-changed'; extensionId: string; status: ExtensionStatus; tellLearner: boolean }
  /** Undecided for REQUEST_REMIND_HOURS: a reminder under every card copy. */
  | { kind: 'extension-reminder'; extensionId: string }
  /** An approval's write settled after its approver's click was answered: the approver by DM. */
  | { kind: 'extension-settled'; extensionId: string; approver: string; extended: boolean };

export const EXTENSION_NOTICE_KINDS = [
  'extension-received',
  'extension-changed',
  'extension-reminder',
  'extension-settled',
] as const;

/** The latest end date a license of a pool may have: the pool's last day. */
export function latestDay(poolEnd: string): string {
  return dayOf(poolEnd);
}

/**
 * Why the asked-for end date cannot be used, as a sentence for the date field: not a date, a day
 * that has passed, not later than the end the license has, or past the pool's end.
 */
export function endDateProblem(day: string, now: Date, currentEnd: string, poolEnd: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) return 'Please pick a date.';
  if (day < today(now)) return 'That day has passed: pick a later one.';
  const current = dayOf(currentEnd);
  if (current && day <= current) return `Your license already runs until ${shownDay(current)}: pick a later day.`;
  const latest = latestDay(poolEnd);
  if (latest && day > latest) return `The pool ends on ${shownDay(latest)}: pick that day or an earlier one.`;
  return undefined;
}

/** Waiting for an approver, or being carried out: one such request per license. */
export function isOpenExtension(r: Pick<ExtensionRequest, 'status'>): boolean {
  return r.status === 'pending' || r.status === 'extending';
}

/**
 * What the periodic check owes an undecided request at `now` (the course requests' timers): a
 * reminder once after `remindAfterMs`, expiry after `expireAfterMs`.
 */
export function extensionDue(
  r: ExtensionRequest,
  timers: { remindAfterMs: number; expireAfterMs: number },
  now: Date,
): 'expire' | 'remind' | undefined {
  if (r.status !== 'pending') return undefined;
  const age = now.getTime() - Date.parse(r.createdAt);
  if (age >= timers.expireAfterMs) return 'expire';
  if (age >= timers.remindAfterMs && r.remindedAt === undefined) return 'remind';
  return undefined;
}

/** Why a learner's ask was not taken (worded by blocks/extensions.ts). */
export type AskRefusal =
  | { kind: 'not-yours' }
  | { kind: 'not-changeable'; why: 'not-transferable' | 'inactive' | 'expired' | 'not-editable' | 'pool-unknown' }
  | { kind: 'date'; problem: string }
  | { kind: 'reason'; problem: string }
  | { kind: 'waiting'; request: ExtensionRequest }
  | { kind: 'limited'; problem: string };

/** What an approver's click came to. */
export type ExtensionDecision =
  | { kind: 'not-found' }
  | { kind: 'own'; request: ExtensionRequest }
  | { kind: 'already'; request: ExtensionRequest }
  /** Nothing was recorded or sent (the database did not answer). */
  | { kind: 'not-recorded' }
  | { kind: 'approved'; request: ExtensionRequest }
  | { kind: 'denied'; request: ExtensionRequest }
  /** The fresh read refused it, or the write failed: nothing changed, the request is pending again. */
  | { kind: 'not-extended'; request: ExtensionRequest; why: string }
  /** The answer was lost: it is read back, and the approver and the learner are told then. */
  | { kind: 'unknown'; request: ExtensionRequest };
