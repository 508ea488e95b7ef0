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
  applyDecision,
  type CancelOutcome,
  type CourseRequest,
  cutReason,
  DEFAULT_REQUEST_LIMITS,
  type DecideOutcome,
  dueAction,
  isFinal,
  neededByProblem,
  type RequestAssignOutcome,
  type RequestLimits,
  type RequestNotice,
  type RequestSource,
  type RequestTimers,
  reasonProblem,
  requestLimitProblem,
  type WaitlistJoinOutcome,
} from '../../domain/requests.js';
import type { Pool } from '../../domain/types.js';
import { isLicensingError } from '../../licensing/errors.js';
import type { LicensingClient, Logger } from '../../licensing/types.js';
import { readBackAssign } from '../assign.js';
import type { AuditLog } from '../audit.js';
import type { Intent, Intents } from '../intents.js';
import type { Outbox } from '../outbox.js';
import { createLocalPoolLock, type WaitlistAssignOutcome, type WaitlistEntry } from '../waitlist.js';
import type { WorkTracker } from '../work-tracker.js';
import { assignForRequest, type RequestAssignContext } from './assign.js';
import { type DbRequestStore, entryOfRequest } from './db-store.js';

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
  changed(
    request: CourseRequest,
    extra?: { place?: number; toldElsewhere?: boolean; status?: CourseRequest['status'] },
  ): Promise<void>;
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

/** The intent kind of a request's license write (an approval's, or a seat the waitlist gives). */
export const REQUEST_ASSIGN_INTENT = 'request-assign';

export interface RequestServiceOptions {
  store: DbRequestStore;
  /** Each license write is recorded before it is sent (an open intent), closed with its outcome. */
  intents: Intents;
  /** What people are told, queued with the change it tells of; `kick` sends it once committed. */
  outbox: Outbox & { kick?: () => void };
  licensing: LicensingClient;
  audit: AuditLog;
  events: RequestEvents;
  now: () => Date;
  logger: Logger;
  timers: RequestTimers;
  /** Whether approving for a full pool may offer the waitlist. */
  waitlist?: boolean | undefined;
  /** A request went back in line after a write that did not happen: its pool's seats are looked at again. */
  seatMayBeFree?: ((poolId: string) => void) | undefined;
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
  cancel(id: string, userId: string): Promise<CancelOutcome>;
  /** The approver chose the waitlist for an approved request of a full pool. */
  toWaitlist(id: string, approver: string): Promise<WaitlistJoinOutcome>;
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
  /**
   * Settles a request's license write whose answer never came (its process died, or the answer and
   * the read-back were lost): reads the requester's licenses in the pool back, never resends; the
   * request ends assigned, or back to pending (an approval) or in line (the waitlist), and the people
   * are told through the outbox. The Settler calls it for intents of REQUEST_ASSIGN_INTENT.
   */
  settle(intent: Pick<Intent, 'id' | 'subject'>): Promise<void>;
}

/** How the request was made, for its audit entry. */
const SOURCE_WORDS: Record<RequestSource, string> = {
  command: 'asked with /licenses request',
  home: 'asked from App Home',
  shortcut: 'asked with the shortcut',
  workflow: 'asked through a workflow',
};

export const newRequestId = () => `r${randomBytes(6).toString('hex')}`;

/** Who carries out what License Desk decides by itself (an expiry, a settle): the audit's actor. */
const DESK = 'license-desk';

export function createRequestService(opts: RequestServiceOptions): RequestService {
  const { store, events, licensing, intents, outbox } = opts;
  // The state is recorded already when an entry is written: a trail that does not answer (its shared
  // store lost, say) is logged and never turns a done write into "something went wrong".
  const audit = async (entry: Omit<AuditEntry, 'at'>) => {
    try {
      await opts.audit.record({ at: opts.now().toISOString(), ...entry });
    } catch (error) {
      opts.logger.warn('could not record the audit entry of a course request', {
        action: entry.action,
        error: String(error),
      });
    }
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
  const stamp = () => opts.now().toISOString();
  /** One transaction; what it queued is sent once it committed. */
  const txn: DbRequestStore['transaction'] = async (fn) => {
    try {
      return await store.transaction(fn);
    } finally {
      outbox.kick?.();
    }
  };
  const tell = (trx: Parameters<Outbox['enqueue']>[0], notice: RequestNotice, key: string) =>
    outbox.enqueue(trx, notice, key);
  /** The card copies, the requester's DM and a workflow step, once per state the request reaches. */
  const changed = (r: CourseRequest, extra: { place?: number; toldElsewhere?: boolean } = {}): RequestNotice => ({
    kind: 'request-changed',
    requestId: r.id,
    status: r.status,
    ...(extra.place !== undefined ? { place: extra.place } : {}),
    ...(extra.toldElsewhere ? { toldElsewhere: true } : {}),
  });
  const changedKey = (r: CourseRequest, tag = '') => `request:${r.id}:${r.status}${tag}`;

  /** The request with its requester's Slack name, asked for when it was stored without one. */
  async function named(r: CourseRequest): Promise<CourseRequest> {
    if (r.requesterName || !opts.nameOf) return r;
    const name = await opts.nameOf(r.requester).catch(() => undefined);
    return name ? { ...r, requesterName: name } : r;
  }

  /** Back to pending after an approval that gave no license: an approver may approve again or deny. */
  function backToPending(x: CourseRequest, why: string): CourseRequest {
    const next: CourseRequest = { ...x, status: 'pending', lastProblem: why };
    delete next.decidedBy;
    delete next.decidedAt;
    delete next.assigning;
    return next;
  }

  /**
   * The write is recorded before it is sent: the request moves to 'assigning' and an intent is opened,
   * in one transaction, only from `from` (the first decision wins; a freed seat goes to one request).
   */
  async function beginAssign(
    id: string,
    from: 'pending' | 'waitlisted',
    by: string,
    change: (x: CourseRequest) => CourseRequest,
  ) {
    return txn(async (trx, s) =>
      s.swap(id, [from], async (x) => {
        const next = change(x);
        const intentId = await intents.open(trx, {
          kind: REQUEST_ASSIGN_INTENT,
          owner: by,
          subject: id,
          poolId: x.poolId,
          body: {
            requestId: id,
            poolId: x.poolId,
            email: x.requesterEmail,
            from: from === 'pending' ? 'approval' : 'waitlist',
          },
        });
        return {
          ...next,
          status: 'assigning',
          assigning: { intentId, from: from === 'pending' ? 'approval' : 'waitlist', by, at: stamp() },
        };
      }),
    );
  }

  /**
   * Records the outcome of the write in one transaction: the request's new state (only while it is
   * still 'assigning' with this intent), the intent closed and the messages queued. Undefined when
   * another settle came first.
   */
  async function finishAssign(
    r: CourseRequest,
    outcome: unknown,
    next: (x: CourseRequest) => CourseRequest,
    notices: (done: CourseRequest) => { notice: RequestNotice; key: string }[],
  ): Promise<CourseRequest | undefined> {
    const intentId = r.assigning?.intentId;
    return txn(async (trx, s) => {
      const result = await s.swap(r.id, ['assigning'], (x) => {
        if (x.assigning?.intentId !== intentId) return x;
        const out = next(x);
        if (out.status !== 'assigning') delete out.assigning;
        return out;
      });
      if (!result.changed || result.request.assigning?.intentId === intentId) return undefined;
      if (intentId) await intents.close(trx, intentId, outcome);
      for (const { notice, key } of notices(result.request)) await tell(trx, notice, key);
      return result.request;
    });
  }

  /**
   * The assign, its outcome unknown when it throws after the write may have gone out (its audit
   * entry failed, say): the request stays 'assigning' and is read back, never told "went wrong".
   */
  async function assignOrUnknown(r: CourseRequest, approver: string): Promise<RequestAssignOutcome> {
    try {
      return await assignForRequest(ctx, await named(r), approver);
    } catch (error) {
      opts.logger.warn('a course request assign ended in an error; it is read back later', {
        request: r.id,
        error: String(error),
      });
      return { kind: 'unknown', text: String(error) };
    }
  }

  async function decided(request: CourseRequest, approver: string): Promise<DecideOutcome> {
    const outcome = await assignOrUnknown(request, approver);
    if (outcome.kind === 'assigned') {
      const done = await finishAssign(
        request,
        outcome,
        (x) => ({ ...x, status: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate }),
        (d) => [{ notice: changed(d), key: changedKey(d) }],
      );
      const final = done ?? (await store.get(request.id)) ?? request;
      await audit({ actor: approver, action: 'approved', outcome: 'done', ...factsOf(final) });
      return { kind: 'assigned', request: final };
    }
    if (outcome.kind === 'full' && !outcome.transferable && !opts.waitlist) {
      // Nothing the approver could choose: the request goes back to pending for a later approval or a denial.
      const text = `Pool \`${request.poolId}\` is full and cannot recycle seats, so nothing was assigned. Approve again once a seat is free (\`/licenses pool ${request.poolId}\`), or deny the request.`;
      const back =
        (await finishAssign(
          request,
          outcome,
          (x) => backToPending(x, 'the pool is full'),
          () => [],
        )) ?? request;
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
      const seatChoice = { transferable: outcome.transferable, waitlist: opts.waitlist === true };
      const waiting =
        (await finishAssign(
          request,
          outcome,
          (x) => {
            const next: CourseRequest = { ...x, status: 'approved', seatChoice };
            delete next.remindedAt;
            return next;
          },
          (d) => [{ notice: changed(d), key: changedKey(d) }],
        )) ?? request;
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'done',
        ...factsOf(request),
        detail: 'the pool is full: next, the approver frees a seat or puts the request on the waitlist',
      });
      return { kind: 'full', request: waiting, ...seatChoice };
    }
    if (outcome.kind === 'unknown') {
      // The answer and the read-back were lost: the request stays 'assigning' with its intent open;
      // the check reads it back later and the approver and the requester are told then.
      await audit({
        actor: approver,
        action: 'approved',
        outcome: 'unknown',
        ...factsOf(request),
        detail: outcome.text,
      });
      const text =
        'The licensing service did not answer, so whether the license was assigned is being checked. Nothing else is needed: you and the requester get a message once it is known.';
      return { kind: 'not-assigned', request, outcome: { kind: 'unknown', text } };
    }
    // A refusal or a clear failure puts the request back to pending: an approver can deny it or approve again.
    const why = outcome.kind === 'refused' ? outcome.why : outcome.text;
    const back =
      (await finishAssign(
        request,
        outcome,
        (x) => backToPending(x, why),
        () => [],
      )) ?? request;
    await audit({
      actor: approver,
      action: 'approved',
      outcome: outcome.kind === 'refused' ? 'refused' : outcome.kind,
      ...factsOf(request),
      detail: why,
    });
    return { kind: 'not-assigned', request: back, outcome };
  }

  /**
   * The write's outcome read back (its answer never came): the requester holds an active license of
   * the pool, or not. Only read, never resent.
   */
  async function settleAssign(intentId: string, requestId: string | null): Promise<void> {
    const r = requestId ? await store.get(requestId) : undefined;
    if (r?.status !== 'assigning' || r.assigning?.intentId !== intentId) {
      // Nothing waits for it any more (recorded already): the intent only needs closing.
      await txn((trx) => intents.close(trx, intentId, { kind: 'nothing-waits' }));
      return;
    }
    const found = await readBackAssign(licensing, r.poolId, r.requesterEmail, 'background');
    const from = r.assigning.from;
    const by = r.assigning.by;
    if (found) {
      const done = await finishAssign(
        r,
        { kind: 'assigned', licenseId: found.id, readBack: true },
        (x) => ({ ...x, status: 'assigned', licenseId: found.id, endDate: found.end }),
        (d) =>
          from === 'waitlist'
            ? [
                { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
                {
                  notice: { kind: 'waitlist-assigned', requestId: d.id, licenseId: found.id, endDate: found.end },
                  key: `request:${d.id}:waitlist-assigned`,
                },
              ]
            : [
                { notice: changed(d), key: changedKey(d) },
                {
                  notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: true },
                  key: `request:${d.id}:settled:${intentId}`,
                },
              ],
      );
      if (done) {
        await audit({
          actor: by,
          action: from === 'waitlist' ? 'assigned' : 'approved',
          outcome: 'done',
          ...factsOf(done),
          detail: 'settled by reading back after the answer was lost',
        });
      }
      return;
    }
    const why =
      'License Desk stopped (or lost the answer) before the license was assigned, and the licensing service shows none';
    const back = await finishAssign(
      r,
      { kind: 'not-assigned', readBack: true },
      (x) => {
        if (from === 'waitlist') return { ...x, status: 'waitlisted' };
        return backToPending(x, why);
      },
      (d) =>
        from === 'waitlist'
          ? []
          : [
              // The cards offer Approve again; the requester, who never heard of the approval, is not told.
              { notice: changed(d, { toldElsewhere: true }), key: changedKey(d, `:${intentId}`) },
              {
                notice: { kind: 'approval-settled', requestId: d.id, approver: by, assigned: false, why },
                key: `request:${d.id}:settled:${intentId}`,
              },
            ],
    );
    if (back) {
      await audit({
        actor: by,
        action: from === 'waitlist' ? 'assigned' : 'approved',
        outcome: 'failed',
        ...factsOf(back),
        detail: why,
      });
      if (from === 'waitlist') opts.seatMayBeFree?.(back.poolId);
    }
  }

  /** Requests whose write has been running this long without an outcome are read back by the check. */
  const STUCK_MS = 2 * 60_000;

  /** 'assigning' requests of this process whose outcome stayed unknown: read back now. */
  async function settleStuck(): Promise<number> {
    let settled = 0;
    const cutoff = opts.now().getTime() - STUCK_MS;
    for (const r of await store.byStatus('assigning')) {
      if (!r.assigning || Date.parse(r.assigning.at) > cutoff) continue;
      try {
        await settleAssign(r.assigning.intentId, r.id);
        settled++;
      } catch (error) {
        opts.logger.warn('could not check a course request being assigned', { request: r.id, error: String(error) });
      }
    }
    return settled;
  }

  /**
   * An approved request waits for the approver's choice (recycle or waitlist). When the requester now
   * holds an active license from the pool (one read at background priority), the request is assigned
   * and everyone is told.
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
      const done = await txn(async (trx, s) => {
        const result = await s.swap(r.id, ['approved'], (x) => ({
          ...x,
          status: 'assigned',
          licenseId: found.id,
          endDate: found.end,
        }));
        if (result.changed) await tell(trx, changed(result.request), changedKey(result.request));
        return result.changed;
      });
      if (done) settled++;
    }
    return settled;
  }

  /**
   * A waitlisted request that can never take a seat leaves the line closed: denied by License Desk
   * with the reason (the approval stays in the audit trail), every card updated, a workflow step
   * completed; the requester and the approver are told why, with who is next.
   */
  function closedSkipped(x: CourseRequest, why: string): CourseRequest {
    const next: CourseRequest = {
      ...x,
      status: 'denied',
      decidedBy: DESK,
      decidedAt: stamp(),
      denyReason: `it could not be assigned from the waitlist: ${why}`,
    };
    delete next.assigning;
    return next;
  }
  /** `within`: the store of the transaction this runs in (SQLite has one connection: never the outer one). */
  async function skippedNotices(
    d: CourseRequest,
    why: string,
    approver: string | undefined,
    within: Pick<DbRequestStore, 'lines'> = store,
  ) {
    const next = Object.values(await within.lines(d.poolId))[0]?.find((e) => e.requestId !== d.id);
    return [
      { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
      {
        notice: {
          kind: 'waitlist-skipped',
          requestId: d.id,
          reason: why,
          ...(approver ? { approver } : {}),
          ...(next ? { next: next.requestId } : {}),
          ...(why === 'the pool has ended' ? { poolEnded: true } : {}),
        } satisfies RequestNotice,
        key: `request:${d.id}:waitlist-skipped`,
      },
    ];
  }

  /** Approved for a full pool, and nobody freed a seat nor chose the waitlist in time: it expires. */
  async function expireApproved(r: CourseRequest): Promise<boolean> {
    const done = await txn(async (trx, s) => {
      const current = await s.get(r.id);
      if (current?.status !== 'approved' || current.decidedAt !== r.decidedAt) return undefined;
      const result = await s.swap(r.id, ['approved'], (x) => ({
        ...x,
        status: 'expired',
        noSeatFound: true,
        decidedAt: stamp(),
      }));
      if (!result.changed) return undefined;
      await tell(trx, changed(result.request), changedKey(result.request));
      return result.request;
    });
    if (!done) return false;
    await audit({
      actor: DESK,
      action: 'expired',
      outcome: 'done',
      ...factsOf(done),
      detail: 'approved, but no seat was found in time',
    });
    return true;
  }

  /** Once, even with several replicas running the check: only the one that sets remindedAt reminds. */
  async function remindOnce(r: CourseRequest, status: 'pending' | 'approved'): Promise<boolean> {
    let mine = false;
    const result = await store.swap(r.id, [status], (x) => {
      if (x.remindedAt !== undefined) return x;
      mine = true;
      return { ...x, remindedAt: stamp() };
    });
    if (!result.changed || !mine) return false;
    await events.reminder(result.request);
    return true;
  }

  /** Decided requests no longer needed leave the store (their history is in the audit trail). */
  async function prune(): Promise<number> {
    try {
      return (await store.prune?.(opts.now())) ?? 0;
    } catch (error) {
      opts.logger.warn('could not prune decided course requests', { error: String(error) });
      return 0;
    }
  }

  /** A decision from 'pending' (deny, cancel, expire) and its messages, in one transaction. */
  async function decideAndTell(id: string, decision: Parameters<DbRequestStore['decide']>[1], toldElsewhere = false) {
    return txn(async (trx, s) => {
      const result = await s.decide(id, decision);
      if (result.ok) await tell(trx, changed(result.request, { toldElsewhere }), changedKey(result.request));
      return result;
    });
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
      // The first decision wins: pending -> assigning with the write's intent, in one transaction.
      const at = stamp();
      const begun = await beginAssign(id, 'pending', approver, (x) => {
        const next = applyDecision(x, { kind: 'approve', by: approver, at });
        delete next.lastProblem;
        return next;
      });
      if (!begun.changed) return begun.request ? { kind: 'already', request: begun.request } : { kind: 'not-found' };
      return decided(begun.request, approver);
    },

    async deny(id, approver, reason) {
      const current = await store.get(id);
      if (!current) return { kind: 'not-found' };
      if (current.requester === approver) return { kind: 'own', request: current };
      const trimmed = reason?.trim();
      const why = trimmed ? cutReason(trimmed) : undefined;
      const result = await decideAndTell(id, {
        kind: 'deny',
        by: approver,
        at: stamp(),
        ...(why ? { reason: why } : {}),
      });
      if (!result.ok)
        return result.reason === 'not-found' ? { kind: 'not-found' } : { kind: 'already', request: result.request };
      await audit({ actor: approver, action: 'denied', outcome: 'done', ...factsOf(result.request) });
      return { kind: 'denied', request: result.request };
    },

    async cancel(id, userId) {
      const current = await store.get(id);
      if (!current || current.requester !== userId) return { kind: 'not-yours' };
      // The requester clicked Cancel and sees their list change in place: no DM about it too.
      const result = await decideAndTell(id, { kind: 'cancel', by: userId, at: stamp() }, true);
      if (!result.ok) {
        const now = result.reason === 'already' ? result.request.status : current.status;
        if (now === 'assigning') return { kind: 'assigning' };
        return { kind: 'decided', status: now === 'pending' ? 'just now' : now };
      }
      await audit({ actor: userId, action: 'cancelled', outcome: 'done', ...factsOf(result.request) });
      return { kind: 'cancelled', request: result.request };
    },

    async toWaitlist(id, approver) {
      if (!opts.waitlist) return { kind: 'off' };
      // Status and place in one step, only from 'approved': a request whose license is being assigned
      // cannot join a line, and a double click queues it once.
      const joined = await txn(async (trx, s) => {
        const result = await s.joinLine(id, stamp());
        if (result.ok) await tell(trx, changed(result.request, { place: result.place }), changedKey(result.request));
        return result;
      });
      if (!joined.ok) {
        const r = joined.request;
        if (!r) return { kind: 'not-found' };
        if (r.status === 'assigning') return { kind: 'assigning' };
        if (r.status === 'waitlisted') {
          const place = await store.placeOf(id);
          return { kind: 'in-line', ...(place ? { place } : {}) };
        }
        return { kind: 'not-waiting', status: r.status };
      }
      await audit({
        actor: approver,
        action: 'waitlisted',
        outcome: 'done',
        poolId: joined.request.poolId,
        requester: joined.request.requester,
        requestId: id,
        courseTitle: joined.request.courseTitle,
        place: joined.place,
      });
      return { kind: 'joined', place: joined.place };
    },

    async assignWaitlisted(entry) {
      const r = await store.get(entry.requestId);
      if (!r) return { kind: 'skipped', reason: 'the request no longer exists' };
      if (r.status === 'assigning') return { kind: 'held', reason: 'its license is being assigned already' };
      if (r.status !== 'waitlisted') return { kind: 'skipped', reason: `the request is ${r.status}, not waiting` };
      const presence = await opts.presence?.(r.requester);
      if (presence && 'unknown' in presence) return { kind: 'held', reason: presence.unknown };
      if (presence && 'gone' in presence) {
        const gone = presence.gone;
        const closed = await txn(async (trx, s) => {
          const result = await s.swap(r.id, ['waitlisted'], (x) => closedSkipped(x, gone));
          if (!result.changed) return undefined;
          for (const { notice, key } of await skippedNotices(result.request, gone, r.decidedBy, s))
            await tell(trx, notice, key);
          return result.request;
        });
        return closed ? { kind: 'skipped', reason: gone } : { kind: 'held', reason: 'the request changed meanwhile' };
      }
      const approver = r.decidedBy ?? entry.approver ?? DESK;
      // The seat goes to one request: waitlisted -> assigning (it keeps its place) with the intent.
      const begun = await beginAssign(r.id, 'waitlisted', approver, (x) => x);
      if (!begun.changed) {
        return begun.request?.status === 'assigning'
          ? { kind: 'held', reason: 'its license is being assigned already' }
          : { kind: 'skipped', reason: `the request is ${begun.request?.status ?? 'gone'}, not waiting` };
      }
      const mine = begun.request;
      const outcome = await assignOrUnknown(mine, approver);
      switch (outcome.kind) {
        case 'assigned': {
          await finishAssign(
            mine,
            outcome,
            (x) => ({ ...x, status: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate }),
            (d) => [
              { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
              {
                notice: {
                  kind: 'waitlist-assigned',
                  requestId: d.id,
                  licenseId: outcome.licenseId,
                  endDate: outcome.endDate,
                },
                key: `request:${d.id}:waitlist-assigned`,
              },
            ],
          );
          return { kind: 'assigned', licenseId: outcome.licenseId, endDate: outcome.endDate };
        }
        case 'refused': {
          // A license of this pool already held (an earlier assign whose answer was lost): the seat is theirs.
          const held = await readBackAssign(licensing, mine.poolId, mine.requesterEmail, 'interactive').catch(
            () => undefined,
          );
          if (held) {
            await finishAssign(
              mine,
              { kind: 'assigned', licenseId: held.id, readBack: true },
              (x) => ({ ...x, status: 'assigned', licenseId: held.id, endDate: held.end }),
              (d) => [
                { notice: changed(d, { toldElsewhere: true }), key: changedKey(d) },
                {
                  notice: { kind: 'waitlist-assigned', requestId: d.id, licenseId: held.id, endDate: held.end },
                  key: `request:${d.id}:waitlist-assigned`,
                },
              ],
            );
            return { kind: 'assigned', licenseId: held.id, endDate: held.end };
          }
          const notices = await skippedNotices(mine, outcome.why, mine.decidedBy);
          await finishAssign(
            mine,
            outcome,
            (x) => closedSkipped(x, outcome.why),
            (d) => notices.map((n) => (n.notice.kind === 'request-changed' ? { ...n, key: changedKey(d) } : n)),
          );
          return { kind: 'skipped', reason: outcome.why };
        }
        case 'unknown':
          // Left 'assigning' with its intent open: the check reads it back; it keeps its place meanwhile.
          return { kind: 'held', reason: outcome.text };
        case 'full':
        case 'failed': {
          await finishAssign(
            mine,
            outcome,
            (x) => ({ ...x, status: 'waitlisted' }),
            () => [],
          );
          return { kind: 'held', reason: outcome.kind === 'full' ? 'the seat was taken in between' : outcome.text };
        }
      }
    },

    async removeFromWaitlist(id, admin) {
      const removed = await txn(async (trx, s) => {
        const before = await s.get(id);
        const result = await s.swap(id, ['waitlisted'], (x) => ({
          ...x,
          status: 'denied',
          decidedBy: admin,
          decidedAt: stamp(),
          denyReason: 'removed from the waitlist by a license admin',
        }));
        if (!result.changed || !before) return undefined;
        await tell(trx, changed(result.request), changedKey(result.request));
        return entryOfRequest(before);
      });
      if (removed) {
        await audit({
          actor: admin,
          action: 'waitlist-removed',
          outcome: 'done',
          poolId: removed.poolId,
          requester: removed.requester,
          requestId: removed.requestId,
          ...(removed.courseTitle ? { courseTitle: removed.courseTitle } : {}),
        });
      }
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
          const result = await decideAndTell(r.id, { kind: 'expire', at: now.toISOString() });
          if (!result.ok) continue;
          expired++;
          await audit({
            actor: DESK,
            action: 'expired',
            outcome: 'done',
            ...factsOf(result.request),
            detail: 'nobody decided in time',
          });
        } else if (due === 'remind' && (await remindOnce(r, 'pending'))) {
          reminded++;
        }
      }
      const settled = (await settleApproved()) + (await settleStuck());
      const pruned = await prune();
      return {
        reminded,
        expired,
        ...(settled > 0 ? { settled } : {}),
        ...(pruned > 0 ? { pruned } : {}),
      };
    },

    settle: (intent) => settleAssign(intent.id, intent.subject),
  };
  // One create at a time per requester: the limits and a repeated workflow delivery see the one before.
  const createNow = api.create;
  api.create = (input) => creating.run(input.requester, () => createNow(input));
  return api;
}
