/**
 * The use cases of self-service course requests (docs/course-requests.md): create, approve, deny,
 * cancel, put on the waitlist, assign a waitlisted request (the waitlist's assignWaitlisted: a freed
 * seat goes to the first request in line through the same assign as an approval), and the periodic
 * reminder and expiry check. Each owns its fresh reads, its rules, the write, the audit entry and a typed outcome; what
 * people are told goes through RequestEvents, which the Slack layer implements (no Slack types here).
 */
import { randomBytes } from 'node:crypto';
import { poolBlocker } from '../../domain/assignment.js';
import type { AuditEntry } from '../../domain/audit-entry.js';
import {
  type CourseRequest,
  cutReason,
  DEFAULT_REQUEST_LIMITS,
  type DecideOutcome,
  dueAction,
  isFinal,
  neededByProblem,
  type RequestLimits,
  type RequestSource,
  type RequestStore,
  type RequestTimers,
  reasonProblem,
  requestLimitProblem,
} from '../../domain/requests.js';
import type { Pool } from '../../domain/types.js';
import { isLicensingError } from '../../licensing/errors.js';
import type { LicensingClient, Logger } from '../../licensing/types.js';
import { readBackAssign } from '../assign.js';
import type { AuditLog } from '../audit.js';
import { createLocalPoolLock, type Waitlist, type WaitlistAssignOutcome, type WaitlistEntry } from '../waitlist.js';
import type { WorkTracker } from '../work-tracker.js';
import { assignForRequest, type RequestAssignContext } from './assign.js';

/** What the people involved are told; implemented by the Slack layer. Never throws (logs instead). */
export interface RequestEvents {
  /** A new request: the approvers get the card (its copies are saved on the request), the requester a DM. */
  received(request: CourseRequest, facts: { freeSeats: number }): Promise<void>;
  /**
   * Pending for REQUEST_REMIND_HOURS, or approved that long ago for a full pool with no seat found:
   * the approvers are reminded (and, approved, the approver who must choose).
   */
  reminder(request: CourseRequest): Promise<void>;
  /**
   * The request changed: every card copy shows it; the requester gets a DM (assigned, denied,
   * waitlisted, expired, cancelled) unless `toldElsewhere` (the waitlist's own DMs told them), and a
   * workflow step completes (once).
   */
  changed(request: CourseRequest, extra?: { place?: number; toldElsewhere?: boolean }): Promise<void>;
}

export interface NewRequest {
  requester: string;
  requesterEmail: string;
  /** Their Slack name, sent with the assign so that the student is not created as "Student". */
  requesterName?: string;
  poolId: string;
  reason?: string;
  neededBy?: string;
  source: RequestSource;
  workflow?: { executionId: string; workflowRun?: string; workflowName?: string };
}

export type { DecideOutcome };

/** `repeat`: the Workflow Builder step was delivered again (same execution id); nothing new was made. */
export type CreateOutcome = { ok: true; request: CourseRequest; repeat?: boolean } | { ok: false; text: string };

/**
 * Is the requester still in the workspace, asked when the waitlist gives them a seat days after the
 * approval: `gone` with the reason (the seat goes to the next in line), `unknown` when it cannot be
 * told now (they keep their place), undefined when they are still here.
 */
export type RequesterPresence = (userId: string) => Promise<{ gone: string } | { unknown: string } | undefined>;

export interface RequestServiceOptions {
  store: RequestStore;
  licensing: LicensingClient;
  audit: AuditLog;
  events: RequestEvents;
  now: () => Date;
  logger: Logger;
  timers: RequestTimers;
  /** The waitlist of approved requests for full pools (src/services/waitlist.ts), when there is one. */
  waitlist?: Pick<Waitlist, 'add' | 'remove'> | undefined;
  presence?: RequesterPresence | undefined;
  /**
   * The requester's Slack name, asked only for a request stored without one (made before License Desk
   * kept it): the assign sends it, so the student is not created as "Student". Undefined when unknown.
   */
  nameOf?: ((userId: string) => Promise<string | undefined>) | undefined;
  work?: WorkTracker | undefined;
  /** How many requests one person may have open and make a day; default 3 and 10. */
  limits?: RequestLimits | undefined;
}

export interface RequestService {
  /** Running pools a member may ask for, for the form. */
  pools(): Promise<Pool[]>;
  create(input: NewRequest): Promise<CreateOutcome>;
  approve(id: string, approver: string): Promise<DecideOutcome>;
  deny(id: string, approver: string, reason?: string): Promise<DecideOutcome>;
  cancel(id: string, userId: string): Promise<{ ok: true; request: CourseRequest } | { ok: false; text: string }>;
  /** The approver chose the waitlist for an approved request of a full pool. */
  toWaitlist(id: string, approver: string): Promise<{ ok: true; place: number } | { ok: false; text: string }>;
  /**
   * The waitlist's assign of the request first in line (it was approved already): the requester is
   * still here, then the same assign as an approval with the approver as the actor; the request is
   * marked assigned, or, when it can never take the seat, closed with the reason (the seat goes to
   * the next in line). `held` keeps it in line.
   */
  assignWaitlisted(entry: WaitlistEntry): Promise<WaitlistAssignOutcome>;
  /**
   * A license admin takes a request out of the waitlist: it leaves the line and is closed (denied by
   * that admin, "removed from the waitlist"); the requester is told. The entry removed, or undefined.
   */
  removeFromWaitlist(id: string, admin: string): Promise<WaitlistEntry | undefined>;
  mine(userId: string): Promise<CourseRequest[]>;
  get(id: string): Promise<CourseRequest | undefined>;
  /**
   * Reminds and expires what is due, and settles approved requests whose license was assigned another
   * way (the assign form's recycle, or an unclear answer): returns how many of each.
   */
  check(): Promise<{ reminded: number; expired: number; settled?: number; pruned?: number }>;
}

/** How the request was made, for its audit entry. */
const SOURCE_WORDS: Record<RequestSource, string> = {
  command: 'asked with /licenses request',
  home: 'asked from App Home',
  shortcut: 'asked with the shortcut',
  workflow: 'asked through a workflow',
};

export const newRequestId = () => `r${randomBytes(6).toString('hex')}`;

export function createRequestService(opts: RequestServiceOptions): RequestService {
  const { store, events, licensing } = opts;
  const audit = async (entry: Omit<AuditEntry, 'at'>) => {
    await opts.audit.record({ at: opts.now().toISOString(), ...entry });
  };
  // Whose request, as facts: the audit names the requester with a mention and keeps the id out of its words.
  const factsOf = (r: CourseRequest) => ({
    poolId: r.poolId,
    courseTitle: r.courseTitle,
    studentEmail: r.requesterEmail,
    requester: r.requester,
    requestId: r.id,
    ...(r.licenseId ? { licenseId: r.licenseId } : {}),
  });
  const ctx: RequestAssignContext = { licensing, now: opts.now, work: opts.work, audit: opts.audit };
  const limits = opts.limits ?? DEFAULT_REQUEST_LIMITS;
  // One create at a time per requester (in this process), so two quick submissions cannot both pass
  // the limits, and a repeated Workflow Builder delivery finds the request of the first.
  const creating = createLocalPoolLock();

  /** The request with its requester's Slack name, asked for when it was stored without one. */
  async function named(r: CourseRequest): Promise<CourseRequest> {
    if (r.requesterName || !opts.nameOf) return r;
    const name = await opts.nameOf(r.requester).catch(() => undefined);
    return name ? { ...r, requesterName: name } : r;
  }

  async function decided(request: CourseRequest, approver: string): Promise<DecideOutcome> {
    const outcome = await assignForRequest(ctx, await named(request), approver);
    if (outcome.kind === 'assigned') {
      const done = await store.update(request.id, (r) => {
        r.status = 'assigned';
        r.licenseId = outcome.licenseId;
        r.endDate = outcome.endDate;
      });
      const final = done ?? request;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'done',
        ...factsOf(final),
      });
      await events.changed(final);
      return { kind: 'assigned', request: final };
    }
    if (outcome.kind === 'full' && !outcome.transferable && !opts.waitlist) {
      // Nothing the approver could choose: the request goes back to pending for a later approval or a denial.
      const back =
        (await store.update(request.id, (r) => {
          r.status = 'pending';
          delete r.decidedBy;
          delete r.decidedAt;
        })) ?? request;
      const text = `Pool \`${request.poolId}\` is full and cannot recycle seats, so nothing was assigned. Approve again once a seat is free (\`/licenses pool ${request.poolId}\`), or deny the request.`;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'refused',
        ...factsOf(request),
        detail: 'the pool is full and cannot free a seat',
      });
      return { kind: 'not-assigned', request: back, outcome: { kind: 'refused', text, why: 'the pool is full' } };
    }
    if (outcome.kind === 'full') {
      // The approver's choice is saved on the request: every card copy offers it, and the check
      // reminds and in the end expires it like an undecided request, counted from the approval.
      const seatChoice = { transferable: outcome.transferable, waitlist: opts.waitlist !== undefined };
      const waiting =
        (await store.update(request.id, (r) => {
          r.seatChoice = seatChoice;
          delete r.remindedAt;
        })) ?? request;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'done',
        ...factsOf(request),
        detail: 'the pool is full: next, the approver frees a seat or puts the request on the waitlist',
      });
      await events.changed(waiting);
      return { kind: 'full', request: waiting, ...seatChoice };
    }
    // Not assigned: a refusal or a clear failure puts the request back to pending, so an approver can
    // deny it or approve again; an unknown outcome keeps it approved until someone has looked.
    const back =
      outcome.kind === 'unknown'
        ? request
        : ((await store.update(request.id, (r) => {
            r.status = 'pending';
            delete r.decidedBy;
            delete r.decidedAt;
          })) ?? request);
    await audit({
      actor: approver,
      action: 'approved',
      outcome: outcome.kind === 'refused' ? 'refused' : outcome.kind,
      ...factsOf(request),
      detail: outcome.kind === 'refused' ? outcome.why : outcome.text,
    });
    return { kind: 'not-assigned', request: back, outcome };
  }

  /**
   * An approved request waits for the approver's choice (recycle or waitlist), or for an unclear
   * assign to be looked at. When the requester now holds an active license from the pool (one read at
   * background priority), the request is assigned and everyone is told.
   */
  async function settleApproved(): Promise<number> {
    let settled = 0;
    for (const r of await store.byStatus('approved')) {
      let license: Awaited<ReturnType<typeof readBackAssign>>;
      try {
        license = await readBackAssign(licensing, r.poolId, r.requesterEmail, 'background');
      } catch (error) {
        opts.logger.warn('could not check an approved course request', { request: r.id, error: String(error) });
        continue;
      }
      if (!license) continue;
      const found = license;
      let mine = false;
      const done = await store.update(r.id, (x) => {
        mine = x.status === 'approved';
        if (!mine) return;
        x.status = 'assigned';
        x.licenseId = found.id;
        x.endDate = found.end;
      });
      if (!mine || !done) continue;
      settled++;
      await events.changed(done);
    }
    return settled;
  }

  /**
   * A waitlisted request that can never take a seat leaves the line closed: denied by License Desk
   * with the reason (the approval stays in the audit trail), every card updated, a workflow step
   * completed; the waitlist tells the requester and the approvers.
   */
  async function closeSkipped(r: CourseRequest, why: string): Promise<WaitlistAssignOutcome> {
    const closed =
      (await store.update(r.id, (x) => {
        if (x.status !== 'waitlisted') return;
        x.status = 'denied';
        x.decidedBy = 'license-desk';
        x.decidedAt = opts.now().toISOString();
        x.denyReason = `it could not be assigned from the waitlist: ${why}`;
      })) ?? r;
    await events.changed(closed, { toldElsewhere: true });
    return { kind: 'skipped', reason: why };
  }

  /** Once, even with several replicas running the check: only the one that sets remindedAt reminds. */
  async function remindOnce(r: CourseRequest, status: 'pending' | 'approved'): Promise<boolean> {
    let mine = false;
    const updated = await store.update(r.id, (x) => {
      mine = x.status === status && x.remindedAt === undefined;
      if (mine) x.remindedAt = opts.now().toISOString();
    });
    if (!mine || !updated) return false;
    await events.reminder(updated);
    return true;
  }

  /**
   * Approved for a full pool, and nobody freed a seat nor chose the waitlist in time: the request
   * expires (only if it is still approved: a seat given meanwhile wins), and everyone is told.
   */
  async function expireApproved(r: CourseRequest): Promise<boolean> {
    let mine = false;
    const done = await store.update(r.id, (x) => {
      mine = x.status === 'approved' && x.decidedAt === r.decidedAt;
      if (!mine) return;
      x.status = 'expired';
      x.noSeatFound = true;
      x.decidedAt = opts.now().toISOString();
    });
    if (!mine || !done) return false;
    await audit({
      actor: 'license-desk',
      action: 'expired',
      outcome: 'done',
      ...factsOf(done),
      detail: 'approved, but no seat was found in time',
    });
    await events.changed(done);
    return true;
  }

  /** Decided requests no longer needed leave the store (their history is in the audit trail). */
  async function prune(): Promise<number> {
    if (!store.prune) return 0;
    try {
      return await store.prune(opts.now());
    } catch (error) {
      opts.logger.warn('could not prune decided course requests', { error: String(error) });
      return 0;
    }
  }

  const api: RequestService = {
    async pools() {
      const pools = await licensing.pools.list({ priority: 'interactive' });
      const now = opts.now();
      return pools.filter((p) => poolBlocker(p, now) !== 'ended' && Date.parse(p.start) <= now.getTime());
    },

    async create(input) {
      const mine = await store.byRequester(input.requester);
      if (input.workflow) {
        // Slack delivers function_executed again when it did not see the answer in time: the same
        // execution id is the same step, whose request already exists.
        const executionId = input.workflow.executionId;
        const same = mine.find((r) => r.workflow?.executionId === executionId);
        if (same) return { ok: true, request: same, repeat: true };
      }
      const reason = input.reason?.trim();
      const tooLong = reason ? reasonProblem(reason) : undefined;
      if (tooLong) return { ok: false, text: tooLong };
      if (input.neededBy) {
        const problem = neededByProblem(input.neededBy, opts.now());
        if (problem) return { ok: false, text: `Needed by: ${problem}` };
      }
      const limited = requestLimitProblem(mine, limits, opts.now());
      if (limited) {
        await audit({
          actor: input.requester,
          action: 'requested',
          outcome: 'refused',
          poolId: input.poolId,
          detail: `too many requests (${input.source})`,
        });
        return { ok: false, text: limited };
      }
      let pool: Pool;
      try {
        pool = await licensing.pools.get(input.poolId, { priority: 'interactive' });
      } catch (error) {
        if (isLicensingError(error) && error.kind === 'not-found') {
          return {
            ok: false,
            text: `There is no pool \`${input.poolId}\`. Pick a course from the list in \`/licenses request\`.`,
          };
        }
        throw error;
      }
      const now = opts.now();
      if (poolBlocker(pool, now) === 'ended' || Date.parse(pool.start) > now.getTime()) {
        return {
          ok: false,
          text: `Pool \`${pool.id}\` (${pool.course.title}) is not running now, so it takes no requests. Pick another pool of the course.`,
        };
      }
      const open = mine.find((r) => r.poolId === pool.id && !isFinal(r.status));
      if (open) {
        return {
          ok: false,
          text: `You already asked for ${pool.course.title} (your request is ${open.status}). See \`/licenses requests\`.`,
        };
      }
      const afterEnd = input.neededBy ? neededByProblem(input.neededBy, now, pool.end) : undefined;
      if (afterEnd) return { ok: false, text: `Needed by: ${afterEnd}` };
      const request: CourseRequest = {
        id: newRequestId(),
        requester: input.requester,
        requesterEmail: input.requesterEmail,
        ...(input.requesterName ? { requesterName: input.requesterName } : {}),
        poolId: pool.id,
        courseTitle: pool.course.title,
        ...(reason ? { reason } : {}),
        ...(input.neededBy ? { neededBy: input.neededBy } : {}),
        createdAt: now.toISOString(),
        status: 'pending',
        source: input.source,
        ...(input.workflow ? { workflow: input.workflow } : {}),
        cards: [],
        poolEnd: pool.end,
      };
      await store.put(request);
      await audit({
        actor: input.requester,
        action: 'requested',
        outcome: 'done',
        ...factsOf(request),
        detail: SOURCE_WORDS[input.source],
      });
      await events.received(request, { freeSeats: pool.availableLicenses });
      return { ok: true, request: (await store.get(request.id)) ?? request };
    },

    async approve(id, approver) {
      const current = await store.get(id);
      if (!current) return { kind: 'not-found' };
      if (current.requester === approver) {
        await audit({
          actor: approver,
          action: 'approved',
          outcome: 'refused',
          ...factsOf(current),
          detail: 'nobody may decide their own request',
        });
        return { kind: 'own', request: current };
      }
      if (current.status === 'pending') {
        // Asked fresh, as the waitlist does: someone deactivated, made a guest or taken out of
        // REQUESTERS since asking gets no license; nothing is written and the approver hears why.
        const presence = await opts.presence?.(current.requester);
        if (presence && 'gone' in presence) {
          await audit({
            actor: approver,
            action: 'approved',
            outcome: 'refused',
            ...factsOf(current),
            detail: `the requester may no longer get a license: ${presence.gone}`,
          });
          return { kind: 'requester-gone', request: current, why: presence.gone };
        }
        if (presence && 'unknown' in presence) {
          return { kind: 'requester-unknown', request: current, why: presence.unknown };
        }
      }
      const result = await store.decide(id, { kind: 'approve', by: approver, at: opts.now().toISOString() });
      if (!result.ok)
        return result.reason === 'not-found' ? { kind: 'not-found' } : { kind: 'already', request: result.request };
      return decided(result.request, approver);
    },

    async deny(id, approver, reason) {
      const current = await store.get(id);
      if (!current) return { kind: 'not-found' };
      if (current.requester === approver) return { kind: 'own', request: current };
      const trimmed = reason?.trim();
      const why = trimmed ? cutReason(trimmed) : undefined;
      const result = await store.decide(id, {
        kind: 'deny',
        by: approver,
        at: opts.now().toISOString(),
        ...(why ? { reason: why } : {}),
      });
      if (!result.ok)
        return result.reason === 'not-found' ? { kind: 'not-found' } : { kind: 'already', request: result.request };
      await audit({
        actor: approver,
        action: 'denied',
        outcome: 'done',
        ...factsOf(result.request),
      });
      await events.changed(result.request);
      return { kind: 'denied', request: result.request };
    },

    async cancel(id, userId) {
      const current = await store.get(id);
      if (!current || current.requester !== userId) return { ok: false, text: 'That request is not one of yours.' };
      const result = await store.decide(id, { kind: 'cancel', by: userId, at: opts.now().toISOString() });
      if (!result.ok) {
        return {
          ok: false,
          text: `That request was already decided (${current.status === 'pending' ? 'just now' : current.status}); it cannot be cancelled.`,
        };
      }
      await audit({
        actor: userId,
        action: 'cancelled',
        outcome: 'done',
        ...factsOf(result.request),
      });
      // The requester clicked Cancel and sees their list change in place: no DM about it too.
      await events.changed(result.request, { toldElsewhere: true });
      return { ok: true, request: result.request };
    },

    async toWaitlist(id, approver) {
      const current = await store.get(id);
      if (!current) return { ok: false, text: 'That request no longer exists.' };
      if (current.status !== 'approved')
        return { ok: false, text: `That request is ${current.status}, not waiting for a seat.` };
      if (!opts.waitlist)
        return {
          ok: false,
          text: 'The waitlist is not available in this version of License Desk; free a seat instead, or deny.',
        };
      // Marked first, so that a seat given at once finds the request waiting; the waitlist's add
      // records the audit entry (with the place).
      let mine = false;
      const updated = await store.update(id, (r) => {
        mine = r.status === 'approved';
        if (mine) r.status = 'waitlisted';
      });
      if (!mine || !updated) return { ok: false, text: 'That request was just handled by someone else.' };
      let place: number;
      try {
        place = await opts.waitlist.add(
          {
            id,
            poolId: updated.poolId,
            requester: updated.requester,
            decidedBy: updated.decidedBy ?? approver,
            courseTitle: updated.courseTitle,
          },
          approver,
        );
      } catch (error) {
        // Not in line after all: back to approved, so the approver can choose again.
        await store.update(id, (r) => {
          if (r.status === 'waitlisted') r.status = 'approved';
        });
        opts.logger.warn('could not add a course request to the waitlist', { request: id, error: String(error) });
        return {
          ok: false,
          text: 'I could not add it to the waitlist just now; please click Add to the waitlist again.',
        };
      }
      await events.changed(updated, { place });
      return { ok: true, place };
    },

    async assignWaitlisted(entry) {
      const r = await store.get(entry.requestId);
      if (!r) return { kind: 'skipped', reason: 'the request no longer exists' };
      if (r.status !== 'waitlisted') return { kind: 'skipped', reason: `the request is ${r.status}, not waiting` };
      const presence = await opts.presence?.(r.requester);
      if (presence && 'unknown' in presence) return { kind: 'held', reason: presence.unknown };
      if (presence && 'gone' in presence) return closeSkipped(r, presence.gone);
      const outcome = await assignForRequest(ctx, await named(r), r.decidedBy ?? entry.approver ?? 'license-desk');
      switch (outcome.kind) {
        case 'assigned': {
          const done =
            (await store.update(r.id, (x) => {
              x.status = 'assigned';
              x.licenseId = outcome.licenseId;
              x.endDate = outcome.endDate;
            })) ?? r;
          // The waitlist tells the requester and the approvers; the cards and a workflow step follow here.
          await events.changed(done, { toldElsewhere: true });
          return { kind: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate };
        }
        case 'refused':
          return closeSkipped(r, outcome.why);
        case 'full':
          return { kind: 'held', reason: 'the seat was taken in between' };
        case 'failed':
        case 'unknown':
          return { kind: 'held', reason: outcome.text };
      }
    },

    async removeFromWaitlist(id, admin) {
      const removed = await opts.waitlist?.remove(id, admin);
      let mine = false;
      const closed = await store.update(id, (x) => {
        mine = x.status === 'waitlisted';
        if (!mine) return;
        x.status = 'denied';
        x.decidedBy = admin;
        x.decidedAt = opts.now().toISOString();
        x.denyReason = 'removed from the waitlist by a license admin';
      });
      if (mine && closed) await events.changed(closed);
      return removed;
    },

    mine: (userId) => store.byRequester(userId),
    get: (id) => store.get(id),

    async check() {
      const now = opts.now();
      let reminded = 0;
      let expired = 0;
      for (const r of await store.byStatus('approved')) {
        const due = dueAction(r, opts.timers, now);
        if (due === 'expire') {
          if (await expireApproved(r)) expired++;
        } else if (due === 'remind' && (await remindOnce(r, 'approved'))) {
          reminded++;
        }
      }
      for (const r of await store.byStatus('pending')) {
        const due = dueAction(r, opts.timers, now);
        if (due === 'expire') {
          const result = await store.decide(r.id, { kind: 'expire', at: now.toISOString() });
          if (!result.ok) continue;
          expired++;
          await audit({
            actor: 'license-desk',
            action: 'expired',
            outcome: 'done',
            ...factsOf(result.request),
            detail: 'nobody decided in time',
          });
          await events.changed(result.request);
        } else if (due === 'remind' && (await remindOnce(r, 'pending'))) {
          reminded++;
        }
      }
      const settled = await settleApproved();
      const pruned = await prune();
      return {
        reminded,
        expired,
        ...(settled > 0 ? { settled } : {}),
        ...(pruned > 0 ? { pruned } : {}),
      };
    },
  };
  // One create at a time per requester: the limits and a repeated workflow delivery see the one before.
  const createNow = api.create;
  api.create = (input) => creating.run(input.requester, () => createNow(input));
  return api;
}
