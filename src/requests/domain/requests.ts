/**
 * Self-service course requests: the shared types of the request flow (requests, decisions, the
 * assign's outcome) and the pure rules on them. Pure: every rule takes `now`. The waitlist of approved
 * requests for full pools is src/requests/domain/waitlist.ts (its entries name a request by id).
 */

import { type BusinessCalendar, waitedMs } from '../../kernel/domain/business-hours.js';
import { dayText } from '../../kernel/domain/end-date.js';
import { DAY_MS } from '../../kernel/domain/time.js';

/**
 * `assigning`: the license's write is recorded (an open intent) and being sent, for an approval or a
 * seat the waitlist gives; it never claims the outcome. It ends assigned, or back to pending (an
 * approval) or in line (a waitlisted request), also after a crash (the settle reads back).
 */
export type RequestStatus =
  | 'pending'
  | 'approved'
  | 'assigning'
  | 'waitlisted'
  | 'assigned'
  | 'denied'
  | 'expired'
  | 'cancelled';

export type RequestSource = 'command' | 'home' | 'shortcut' | 'workflow' | 'slackbot';

/** A message that shows the request to its approvers (a channel post or one admin's DM). */
export interface RequestCard {
  channel: string;
  ts: string;
}

export interface CourseRequest {
  id: string;
  /** Slack user id of the person who asked. */
  requester: string;
  /** Their Slack e-mail: the license goes to it. */
  requesterEmail: string;
  /** Their Slack name when they asked (real, else display name): the student's name the assign sends. */
  requesterName?: string;
  poolId: string;
  courseTitle: string;
  reason?: string;
  /** YYYY-MM-DD. */
  neededBy?: string;
  /** ISO date-time. */
  createdAt: string;
  status: RequestStatus;
  /** Slack user id of the approver who decided (or of the approver whose approval is being carried out). */
  decidedBy?: string;
  /** A delegate decided: the approver who is away, whom they decided for (the audit's "for <@A>"). */
  decidedFor?: string;
  decidedAt?: string;
  denyReason?: string;
  licenseId?: string;
  /** The license's end, once assigned (ISO). */
  endDate?: string;
  source: RequestSource;
  /**
   * Set for a request created by the Workflow Builder step: completed when the request is decided.
   * `workflowRun` is the workflow's execution id and `workflowName` the name its builder gave (an
   * optional input), shown on the card: the workflow, not the person, chose the requester.
   */
  workflow?: { executionId: string; completed?: boolean; workflowRun?: string; workflowName?: string };
  cards: RequestCard[];
  /** When the approvers were last reminded (ISO): of the undecided request, then again once approved for a full pool. */
  remindedAt?: string;
  /** When the undecided request was escalated (REQUEST_ESCALATE_HOURS): once, whatever the replicas. */
  escalatedAt?: string;
  /** The pool's end when the request was made (ISO): the license would run until then. */
  poolEnd?: string;
  /** Approved for a full pool: what the approvers may choose (free a seat, the waitlist). */
  seatChoice?: { transferable: boolean; waitlist: boolean };
  /** Expired after its approval: the pool stayed full and no seat was found in time. */
  noSeatFound?: boolean;
  /** The requester's "received" DM, which a request they make right after cancelling this one reuses. */
  requesterDm?: RequestCard;
  /** When it joined its pool's waitlist (ISO). */
  waitlistedAt?: string;
  /**
   * While `assigning`: the open intent of the write, what it came from (an approval, the waitlist, or
   * an approver freeing a seat for an approved request of a full pool), and who carries it out.
   */
  assigning?: { intentId: string; from: 'approval' | 'waitlist' | 'seat'; by: string; at: string };
  /** Why the last approval did not end in a license (shown on the card of a pending request). */
  lastProblem?: string;
}

/** Every status a stored request may have. */
export const REQUEST_STATUSES: readonly RequestStatus[] = [
  'pending',
  'approved',
  'assigning',
  'waitlisted',
  'assigned',
  'denied',
  'expired',
  'cancelled',
];

/**
 * A request as stored (the `body` of its row), or undefined when it cannot be read: not JSON (cut
 * short), `null`, or without the facts every view and use case relies on (its id, requester, e-mail,
 * pool, course, time, a known status, its card copies).
 */
export function readStoredRequest(body: string): CourseRequest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const text = (k: string) => typeof r[k] === 'string' && r[k] !== '';
  const ok =
    ['id', 'requester', 'requesterEmail', 'poolId', 'createdAt'].every(text) &&
    typeof r.courseTitle === 'string' &&
    REQUEST_STATUSES.includes(r.status as RequestStatus) &&
    Array.isArray(r.cards);
  return ok ? (value as CourseRequest) : undefined;
}

/**
 * A request whose stored record cannot be read (domain `readStoredRequest`): every list leaves it out
 * (with a warning naming its id in the log), and an action on it is told so, never "no longer exists".
 */
export class UnreadableRequestError extends Error {
  override readonly name = 'UnreadableRequestError';
  constructor(readonly requestId: string) {
    super(`the course request ${requestId} cannot be read from the records (its stored data is damaged)`);
  }
}

/**
 * What people are told about a request, queued in the outbox with the change it tells of and worded
 * by the Slack layer when it is sent (src/requests/slack/request-notices.ts), so a crash neither loses nor
 * repeats a message.
 */
export type RequestNotice =
  /** Every card copy shows the request as it is; the requester gets its DM unless told elsewhere; a workflow step completes. */
  | { kind: 'request-changed'; requestId: string; status: RequestStatus; place?: number; toldElsewhere?: boolean }
  /** The waitlist gave the request a seat: the requester and the approver by DM. */
  | { kind: 'waitlist-assigned'; requestId: string; licenseId: string; endDate?: string }
  /** The request left the line without a seat: the requester and the approver, why; who is next. */
  | {
      kind: 'waitlist-skipped';
      requestId: string;
      reason: string;
      /** Who approved it (the closed request names License Desk as its decider). */
      approver?: string;
      next?: string;
      poolEnded?: boolean;
    }
  /** A new request was stored: the approvers' cards (their copies saved on it) and the requester's "received" DM. */
  | { kind: 'request-received'; requestId: string; freeSeats: number }
  /** Undecided (or approved, seatless) too long: the approvers reminded, once per `remindedAt`. */
  | { kind: 'request-reminder'; requestId: string; status: 'pending' | 'approved' }
  /** Undecided past REQUEST_ESCALATE_HOURS: a card to the owners (or REQUEST_ESCALATE_TO), the requester told. */
  | { kind: 'request-escalated'; requestId: string }
  /** An approval's assign ended after its approver's click was answered (a crash, an unclear answer). */
  | {
      kind: 'approval-settled';
      requestId: string;
      approver: string;
      assigned: boolean;
      why?: string;
      /** The write freed a seat for an approved request: not assigned, it is still approved (not pending). */
      seat?: boolean;
    };

export const REQUEST_NOTICE_KINDS = [
  'request-changed',
  'waitlist-assigned',
  'waitlist-skipped',
  'approval-settled',
  'request-received',
  'request-reminder',
  'request-escalated',
] as const;

export function isRequestNotice(body: unknown): body is RequestNotice {
  return (
    typeof body === 'object' &&
    body !== null &&
    (REQUEST_NOTICE_KINDS as readonly string[]).includes((body as { kind?: unknown }).kind as string) &&
    typeof (body as { requestId?: unknown }).requestId === 'string'
  );
}

/** What an approver (or the expiry check) decides about a pending request. */
export type Decision =
  | { kind: 'approve'; by: string; at: string; for?: string }
  | { kind: 'deny'; by: string; at: string; reason?: string; for?: string }
  | { kind: 'expire'; at: string }
  | { kind: 'cancel'; by: string; at: string };

/** decide(): the first decision wins; a later one learns what happened and who decided. */
export type DecideResult =
  | { ok: true; request: CourseRequest }
  | { ok: false; reason: 'not-found' }
  | { ok: false; reason: 'already'; request: CourseRequest };

/** Where requests live (DATA_DIR or Redis): every write is atomic. */
export interface RequestStore {
  get(id: string): Promise<CourseRequest | undefined>;
  /** Creates or replaces the request as a whole. */
  put(request: CourseRequest): Promise<void>;
  /** Changes one request atomically; undefined when it does not exist. */
  update(id: string, change: (request: CourseRequest) => void): Promise<CourseRequest | undefined>;
  byRequester(userId: string): Promise<CourseRequest[]>;
  byStatus(status: RequestStatus): Promise<CourseRequest[]>;
  /** Compare-and-set from 'pending': exactly one decision is ever taken on a request. */
  decide(id: string, decision: Decision): Promise<DecideResult>;
  /** Drops the decided requests no longer needed (`prunable`); how many. */
  prune?(now: Date): Promise<number>;
}

/**
 * Why a new request was not taken (worded by blocks/request-outcome.ts): `problem` is the domain's
 * own plain sentence (the reason's length, the needed-by date, the requester's limits).
 */
export type CreateRefusal =
  | { kind: 'reason'; problem: string }
  | { kind: 'needed-by'; problem: string }
  | { kind: 'limited'; problem: string }
  | { kind: 'no-pool'; poolId: string }
  | { kind: 'not-running'; poolId: string; courseTitle: string }
  | { kind: 'already-asked'; courseTitle: string; status: RequestStatus };

/**
 * Why a request's license was not assigned by a rule (worded by blocks/request-outcome.ts): the pool
 * gone, ended or full for good, the requester's address, the pool's end date, a license they hold
 * already, or the licensing service's own refusal (its message).
 */
export type RequestRefusal =
  | { kind: 'pool-gone'; poolId: string }
  | { kind: 'pool-ended'; poolId: string }
  | { kind: 'full-untransferable'; poolId: string }
  | { kind: 'email'; poolId: string }
  | { kind: 'domain'; poolId: string; allowed: readonly string[] }
  | { kind: 'end-date' }
  | { kind: 'enrolled'; licenseId: string }
  | { kind: 'api'; poolId: string; message: string };

/** What became of assigning the license of an approved request. */
export type RequestAssignOutcome =
  | { kind: 'assigned'; licenseId: string; endDate: string }
  /** The pool has no free seat: the approver chooses recycle (transferable pools) or the waitlist. */
  | { kind: 'full'; transferable: boolean }
  /**
   * A rule said no (`refusal`); `why` is the short reason in plain words, kept on the request and
   * told in the waitlist's messages ("their e-mail domain is not allowed in this pool").
   */
  | { kind: 'refused'; refusal: RequestRefusal; why: string }
  /**
   * A clear failure before anything changed (`stage`: reading the pool, checking the rules, the
   * write), try again later; `error` is what failed, `why` the short reason in plain words.
   */
  | { kind: 'failed'; stage: 'pool-read' | 'rules-read' | 'write'; poolId: string; error: string; why: string }
  /** The answer was lost and reading back failed too: it is read back later. `detail`: plain words for the log. */
  | { kind: 'unknown'; detail: string };

/** What an approver's click came to (the approver is told; the card and the requester follow). */
export type DecideOutcome =
  | { kind: 'not-found' }
  | { kind: 'own'; request: CourseRequest }
  | { kind: 'already'; request: CourseRequest }
  /** The requester may no longer get a license (deactivated, a guest, no longer in REQUESTERS): nothing written. */
  | { kind: 'requester-gone'; request: CourseRequest; why: string }
  /** Slack could not say whether the requester may still get one: nothing written, try again. */
  | { kind: 'requester-unknown'; request: CourseRequest; why: string }
  | { kind: 'denied'; request: CourseRequest }
  /** License Desk's database did not answer before anything was written or sent: nothing changed, try again. */
  | { kind: 'not-recorded' }
  /**
   * The license write was sent, but its outcome could not be recorded (the database stopped answering):
   * `assigned` when the licensing service said the license was made. The settler records it (reading
   * back) once the database answers again, and the approver and the requester are told then.
   */
  | { kind: 'unrecorded'; request: CourseRequest; assigned?: { licenseId: string; endDate?: string } }
  | { kind: 'assigned'; request: CourseRequest }
  /** Approved, but the pool is full: the approver chooses recycle (transferable) or the waitlist. */
  | { kind: 'full'; request: CourseRequest; transferable: boolean; waitlist: boolean }
  /** Not assigned; the request is pending again (refused, failed) or approved and unknown. */
  | {
      kind: 'not-assigned';
      request: CourseRequest;
      outcome: Exclude<RequestAssignOutcome, { kind: 'assigned' | 'full' }>;
    };

/** What "Add to the waitlist" came to (worded by blocks/requests.ts `buildRequestWaitlistedMessage`). */
export type WaitlistJoinOutcome =
  | { kind: 'joined'; place: number }
  | { kind: 'not-found' }
  /** Its license is being assigned right now (a seat was found): it needs no waitlist. */
  | { kind: 'assigning' }
  | { kind: 'in-line'; place?: number }
  | { kind: 'not-waiting'; status: RequestStatus }
  /** This version of License Desk runs no waitlist. */
  | { kind: 'off' };

/** What a requester's Cancel came to. */
export type CancelOutcome =
  | { kind: 'cancelled'; request: CourseRequest }
  | { kind: 'not-yours' }
  /** Just approved: its license is being assigned. */
  | { kind: 'assigning' }
  | { kind: 'decided'; status: RequestStatus | 'just now' };

export const MAX_REASON = 500;

/**
 * The most a reason may hold as raw text (Slack's own cap of a plain_text_input): an emoji arrives
 * as its `:shortcode:`, so 500 characters as a person counts them can take more than 500 code points.
 */
export const MAX_REASON_RAW = 3000;

/**
 * `:smile:`, `:wave::skin-tone-3:`: a name with at least one letter, so "10:30:" is no emoji; and the
 * few without one (`:+1:`, `:-1:`, `:100:`, `:1234:`).
 */
const SHORTCODE = /:(?:(?=[a-z0-9_+'-]*[a-z])[a-z0-9_+'-]+|[+-]1|100|1234)(?:::skin-tone-[2-6])?:/gi;
/** Built at first use, not at load (start-up: it loads ICU's break rules). */
let graphemeSegmenter: Intl.Segmenter | undefined;
const graphemes = () => (graphemeSegmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' }));

/**
 * The longest text measured at all (twice MAX_REASON_RAW, so that a reason of emoji shortcodes a little
 * over the raw limit still hears how many characters it has as a person counts them): anything longer
 * is refused on its written length alone. A Workflow Builder step or a forged submission can send
 * hundreds of thousands of characters; none of them is ever segmented.
 */
export const MAX_MEASURED = 2 * MAX_REASON_RAW;

/** How much text Intl.Segmenter is given at once (see graphemesOf). */
const WINDOW = 256;

/**
 * The graphemes of a text, in time linear in its length. Intl.Segmenter's iteration over one string
 * takes time that grows with the square of its length in V8 (40,000 characters: seconds), so the text
 * is given to it a window at a time. A grapheme boundary depends only on the characters before it and
 * the character after it (Unicode's rules look no further ahead), so every boundary a window finds before its
 * last segment is a true one; the last segment, which the window's end may have cut, is read again at
 * the start of the next window. A grapheme longer than the window (a letter under hundreds of
 * combining marks) widens it.
 */
function* graphemesOf(text: string): Generator<string> {
  let from = 0;
  let window = WINDOW;
  while (from < text.length) {
    if (from + window >= text.length) {
      for (const { segment } of graphemes().segment(text.slice(from))) yield segment;
      return;
    }
    // Never between the two halves of a surrogate pair: the character after a boundary is read whole.
    const high = text.charCodeAt(from + window - 1);
    const end = from + window - (high >= 0xd800 && high <= 0xdbff ? 1 : 0);
    const segments = [...graphemes().segment(text.slice(from, end))];
    const last = segments.at(-1);
    if (!last || last.index === 0) {
      window *= 2;
      continue;
    }
    for (const { segment } of segments.slice(0, -1)) yield segment;
    from += last.index;
    window = WINDOW;
  }
}

/** The text as the units a person counts: each shortcode (with its skin tone) whole, else each grapheme. */
function* visibleUnits(text: string): Generator<string> {
  let last = 0;
  for (const m of text.matchAll(SHORTCODE)) {
    yield* graphemesOf(text.slice(last, m.index));
    yield m[0];
    last = m.index + m[0].length;
  }
  yield* graphemesOf(text.slice(last));
}

/**
 * The length of a text as a person sees it: one per grapheme (an emoji with its modifiers, a letter
 * with its accents), and one per Slack emoji `:shortcode:` (with its skin tone), which is how a
 * plain_text_input sends an emoji. The reason's limit (MAX_REASON) is counted this way everywhere.
 * Linear in the text's length; callers cap what they measure (MAX_MEASURED).
 */
export function visibleLength(text: string): number {
  let n = 0;
  for (const _ of visibleUnits(text)) n++;
  return n;
}

const count = (n: number) => n.toLocaleString('en-US');

/** Why a reason cannot be taken, if it cannot: a sentence that says the limit and how it is counted. */
export function reasonProblem(reason: string): string | undefined {
  // Capped first: a text this long is too long whatever it holds, and is not measured.
  if (reason.length > MAX_MEASURED) {
    return `Please keep the reason to ${MAX_REASON} characters (an emoji counts as one); it has ${count(reason.length)} characters written out.`;
  }
  const length = visibleLength(reason);
  if (length > MAX_REASON) {
    return `Please keep the reason to ${MAX_REASON} characters (an emoji counts as one); it has ${count(length)}.`;
  }
  if (reason.length > MAX_REASON_RAW) {
    return `Please shorten the reason: written out, its emoji take ${reason.length} characters, and ${MAX_REASON_RAW} is the most.`;
  }
  return undefined;
}

/** Cuts a reason to MAX_REASON characters as visibleLength counts them (a denial's reason), in one pass. */
export function cutReason(reason: string): string {
  let out = '';
  let n = 0;
  // Only the first MAX_REASON_RAW code units can be kept; a few more are read so that the last grapheme
  // or shortcode is seen whole (one that does not fit is left out whole), and nothing past them.
  for (const unit of visibleUnits(reason.slice(0, MAX_REASON_RAW + 64))) {
    if (n + 1 > MAX_REASON || out.length + unit.length > MAX_REASON_RAW) break;
    out += unit;
    n++;
  }
  return out;
}

/** How many requests one person may have: undecided at once, and new ones a day (REQUEST_MAX_OPEN, REQUEST_MAX_PER_DAY). */
export interface RequestLimits {
  maxOpen: number;
  maxPerDay: number;
}

export const DEFAULT_REQUEST_LIMITS: RequestLimits = { maxOpen: 3, maxPerDay: 10 };

/** Waiting for an approver: undecided, or approved for a full pool with no seat yet. */
export function isOpen(r: Pick<CourseRequest, 'status'>): boolean {
  return r.status === 'pending' || r.status === 'approved' || r.status === 'assigning';
}

/**
 * Why one more request of this person is refused, if it is: too many waiting at once, or too many
 * asked in the last 24 hours (cancelled ones count: asking and cancelling still sends cards).
 */
export function requestLimitProblem(
  mine: readonly CourseRequest[],
  limits: RequestLimits,
  now: Date,
): string | undefined {
  const open = mine.filter(isOpen).length;
  if (open >= limits.maxOpen) {
    return `You have ${open} requests waiting for a license admin, the most one person may have at once (${limits.maxOpen}). Wait for a decision, or cancel one in \`/licenses requests\`, then ask again.`;
  }
  const since = now.getTime() - DAY_MS;
  const today = mine.filter((r) => Date.parse(r.createdAt) > since);
  if (today.length >= limits.maxPerDay) {
    const oldest = Math.min(...today.map((r) => Date.parse(r.createdAt)));
    const again = new Date(oldest + DAY_MS).toISOString();
    return `You asked for ${today.length} courses in the last 24 hours, the most one person may (${limits.maxPerDay}). You can ask again after ${dayText(again)} at ${again.slice(11, 16)} UTC.`;
  }
  return undefined;
}

/**
 * Decided requests are kept only as long as they are needed: for late clicks on their cards, the
 * requester's list and the daily limit. The history stays in the audit trail.
 */
export const KEEP_DECIDED = { days: 30, most: 1000 } as const;

/**
 * The ids of final requests to drop at `now`: those decided (or made) more than KEEP_DECIDED.days
 * ago, and beyond the newest KEEP_DECIDED.most; never one made in the last 24 hours (the daily limit).
 */
export function prunable(requests: readonly CourseRequest[], now: Date): string[] {
  const at = (r: CourseRequest) => Date.parse(r.decidedAt ?? r.createdAt);
  const final = requests.filter((r) => isFinal(r.status)).sort((a, b) => at(b) - at(a));
  const tooOld = now.getTime() - KEEP_DECIDED.days * DAY_MS;
  const today = now.getTime() - DAY_MS;
  return final
    .filter((r, i) => (i >= KEEP_DECIDED.most || at(r) < tooOld) && Date.parse(r.createdAt) <= today)
    .map((r) => r.id);
}
/** A request nobody has decided yet. */
export function isUndecided(r: Pick<CourseRequest, 'status'>): boolean {
  return r.status === 'pending';
}

/** A decided request's status is final, except approved -> waitlisted/assigned. */
export function isFinal(status: RequestStatus): boolean {
  return status === 'assigned' || status === 'denied' || status === 'expired' || status === 'cancelled';
}

export interface RequestTimers {
  remindAfterMs: number;
  expireAfterMs: number;
  /** REQUEST_ESCALATE_HOURS: undecided this long (in business hours with `calendar`), escalated once; unset: never. */
  escalateAfterMs?: number;
  /** REQUEST_BUSINESS_DAYS in REQUEST_TIMEZONE: only those days count toward the escalation. */
  calendar?: BusinessCalendar;
}

export function requestTimers(
  remindHours: number,
  expiryDays: number,
  escalation: { hours?: number | undefined; calendar?: BusinessCalendar | undefined } = {},
): RequestTimers {
  return {
    remindAfterMs: remindHours * 3_600_000,
    expireAfterMs: expiryDays * DAY_MS,
    ...(escalation.hours !== undefined ? { escalateAfterMs: escalation.hours * 3_600_000 } : {}),
    ...(escalation.calendar ? { calendar: escalation.calendar } : {}),
  };
}

/**
 * Is an undecided request due to be escalated at `now`: escalation on, not escalated yet, and waiting
 * at least REQUEST_ESCALATE_HOURS (counted on business days only when a calendar is set).
 */
export function escalationDue(r: CourseRequest, timers: RequestTimers, now: Date): boolean {
  if (r.status !== 'pending' || r.escalatedAt !== undefined || timers.escalateAfterMs === undefined) return false;
  return waitedMs(new Date(r.createdAt), now, timers.calendar) >= timers.escalateAfterMs;
}

/** When the timers of a request started: its creation, or, approved for a full pool, its approval. */
export function waitingSince(r: CourseRequest): string {
  return r.status === 'approved' && r.decidedAt ? r.decidedAt : r.createdAt;
}

/**
 * What the periodic check owes a request at `now`: one undecided, or one approved for a full pool
 * whose approver has not freed a seat nor chosen the waitlist (counted from the approval).
 */
export function dueAction(r: CourseRequest, timers: RequestTimers, now: Date): 'expire' | 'remind' | undefined {
  if (r.status !== 'pending' && !(r.status === 'approved' && r.seatChoice)) return undefined;
  const age = now.getTime() - Date.parse(waitingSince(r));
  if (age >= timers.expireAfterMs) return 'expire';
  if (age >= timers.remindAfterMs && r.remindedAt === undefined) return 'remind';
  return undefined;
}

/** The latest "needed by" a request may name: a year from today. */
export const NEEDED_BY_DAYS = 365;

/**
 * Why a "needed by" date cannot be used, if it cannot: YYYY-MM-DD, today or later, within a year,
 * and, once the pool is known, not after its end (the license would be over by then).
 */
export function neededByProblem(day: string, now: Date, poolEnd?: string): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    return 'Please pick a date.';
  }
  const today = now.toISOString().slice(0, 10);
  if (day < today) return 'That date has passed; pick today or a later day, or leave it empty.';
  const latest = new Date(now.getTime() + NEEDED_BY_DAYS * DAY_MS).toISOString().slice(0, 10);
  if (day > latest) return `Pick a date within a year (by ${dayText(`${latest}T00:00:00Z`)}), or leave it empty.`;
  const end = poolEnd && !Number.isNaN(Date.parse(poolEnd)) ? new Date(poolEnd).toISOString().slice(0, 10) : '';
  if (end && day > end) {
    const shown = dayText(`${end}T00:00:00Z`);
    return `The pool ends on ${shown}, before that date: pick ${shown} or earlier, another pool, or leave it empty.`;
  }
  return undefined;
}

const forOf = (d: { for?: string }) => (d.for ? { decidedFor: d.for } : {});
function withoutFor(r: CourseRequest): CourseRequest {
  const { decidedFor: _for, ...rest } = r;
  return rest;
}

/** Applies a decision to a pending request (the store calls this inside its compare-and-set). */
export function applyDecision(r: CourseRequest, d: Decision): CourseRequest {
  switch (d.kind) {
    case 'approve':
      return { ...withoutFor(r), status: 'approved', decidedBy: d.by, decidedAt: d.at, ...forOf(d) };
    case 'deny':
      return {
        ...withoutFor(r),
        status: 'denied',
        decidedBy: d.by,
        decidedAt: d.at,
        ...(d.reason ? { denyReason: d.reason } : {}),
        ...forOf(d),
      };
    case 'expire':
      return { ...r, status: 'expired', decidedAt: d.at };
    case 'cancel':
      return { ...r, status: 'cancelled', decidedBy: d.by, decidedAt: d.at };
  }
}

/**
 * An approval that changed nothing, undone: pending again with why, its decision and its write in
 * flight (`inFlight`) dropped, so an approver may approve again or deny (course requests and asks for
 * more time alike).
 */
export function backToPending<
  T extends { status: string; decidedBy?: string; decidedAt?: string; lastProblem?: string },
>(x: T, why: string, inFlight: 'assigning' | 'extending'): T {
  const {
    decidedBy: _by,
    decidedAt: _at,
    decidedFor: _for,
    [inFlight]: _write,
    ...rest
  } = x as T & Record<string, unknown>;
  return { ...rest, status: 'pending', lastProblem: why } as unknown as T;
}
