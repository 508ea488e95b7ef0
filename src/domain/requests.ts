/**
 * Self-service course requests: the shared types of the request flow (requests, decisions, the
 * assign's outcome) and the pure rules on them. Pure: every rule takes `now`. The waitlist of approved
 * requests for full pools is src/domain/waitlist.ts (its entries name a request by id).
 */
import { DAY_MS } from './time.js';

export type RequestStatus = 'pending' | 'approved' | 'waitlisted' | 'assigned' | 'denied' | 'expired' | 'cancelled';

export type RequestSource = 'command' | 'home' | 'shortcut' | 'workflow';

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
  decidedAt?: string;
  denyReason?: string;
  licenseId?: string;
  /** The license's end, once assigned (ISO). */
  endDate?: string;
  source: RequestSource;
  /** Set for a request created by the Workflow Builder step: completed when the request is decided. */
  workflow?: { executionId: string; completed?: boolean };
  cards: RequestCard[];
  /** When the approvers were last reminded (ISO). */
  remindedAt?: string;
}

/** What an approver (or the expiry check) decides about a pending request. */
export type Decision =
  | { kind: 'approve'; by: string; at: string }
  | { kind: 'deny'; by: string; at: string; reason?: string }
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
}

/** What became of assigning the license of an approved request. */
export type RequestAssignOutcome =
  | { kind: 'assigned'; licenseId: string; endDate: string }
  /** The pool has no free seat: the approver chooses recycle (transferable pools) or the waitlist. */
  | { kind: 'full'; transferable: boolean }
  /**
   * A rule said no; `text` says what happened and what the approver can do, `why` is the short
   * reason (for the waitlist's messages: "their e-mail domain is not allowed in this pool").
   */
  | { kind: 'refused'; text: string; why: string }
  /** A clear failure before anything changed: try again later. */
  | { kind: 'failed'; text: string }
  /** The answer was lost and reading back failed too. */
  | { kind: 'unknown'; text: string };

/** What an approver's click came to (the approver is told; the card and the requester follow). */
export type DecideOutcome =
  | { kind: 'not-found' }
  | { kind: 'own'; request: CourseRequest }
  | { kind: 'already'; request: CourseRequest }
  | { kind: 'denied'; request: CourseRequest }
  | { kind: 'assigned'; request: CourseRequest }
  /** Approved, but the pool is full: the approver chooses recycle (transferable) or the waitlist. */
  | { kind: 'full'; request: CourseRequest; transferable: boolean; waitlist: boolean }
  /** Not assigned; the request is pending again (refused, failed) or approved and unknown. */
  | {
      kind: 'not-assigned';
      request: CourseRequest;
      outcome: Exclude<RequestAssignOutcome, { kind: 'assigned' | 'full' }>;
    };

export const MAX_REASON = 500;

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
}

export function requestTimers(remindHours: number, expiryDays: number): RequestTimers {
  return { remindAfterMs: remindHours * 3_600_000, expireAfterMs: expiryDays * DAY_MS };
}

/** What the periodic check owes a pending request at `now`. */
export function dueAction(r: CourseRequest, timers: RequestTimers, now: Date): 'expire' | 'remind' | undefined {
  if (r.status !== 'pending') return undefined;
  const age = now.getTime() - Date.parse(r.createdAt);
  if (age >= timers.expireAfterMs) return 'expire';
  if (age >= timers.remindAfterMs && r.remindedAt === undefined) return 'remind';
  return undefined;
}

/** Why a "needed by" date cannot be used, if it cannot (YYYY-MM-DD, today or later). */
export function neededByProblem(day: string, now: Date): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`))) {
    return 'Please pick a date.';
  }
  const today = now.toISOString().slice(0, 10);
  return day < today ? 'That date has passed; pick today or a later day, or leave it empty.' : undefined;
}

/** Applies a decision to a pending request (the store calls this inside its compare-and-set). */
export function applyDecision(r: CourseRequest, d: Decision): CourseRequest {
  switch (d.kind) {
    case 'approve':
      return { ...r, status: 'approved', decidedBy: d.by, decidedAt: d.at };
    case 'deny':
      return {
        ...r,
        status: 'denied',
        decidedBy: d.by,
        decidedAt: d.at,
        ...(d.reason ? { denyReason: d.reason } : {}),
      };
    case 'expire':
      return { ...r, status: 'expired', decidedAt: d.at };
    case 'cancel':
      return { ...r, status: 'cancelled', decidedBy: d.by, decidedAt: d.at };
  }
}
