/**
 * Reclaim rounds ("still learning?", docs/reclaim.md). An admin previews who would be asked (holders
 * of transferable pools who stalled or never started, by the progress records), starts a round (the
 * round and its asks in one transaction, each holder's DM through the outbox, keyed), the holders
 * answer Keep or Release, one batched reminder goes out before the deadline, and at the deadline the
 * unanswered asks get the round's policy: released (the revoke use case, an intent before the write)
 * or only listed in the admin's round message. The scheduler's work (`tick`) is safe with replicas
 * (claims by conditional update, keyed messages) and after a kill (a release is read back: a license
 * found inactive counts as released).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { type ChangeContext, revoke } from '../../changes/index.js';
import type { Records } from '../../kernel/db/open.js';
import type { Database, ReclaimAskRow, ReclaimRoundRow } from '../../kernel/db/schema.js';
import type { Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import type { Outbox } from '../../kernel/services/outbox.js';
import { daysSince, type ProgressStore, progressSince } from '../../progress/index.js';
import {
  type AskState,
  askStanding,
  type ReclaimAnswerOutcome,
  type ReclaimAskNotice,
  type ReclaimCandidate,
  type ReclaimNotice,
  type ReclaimOpenRound,
  type ReclaimPolicy,
  type ReclaimPoolPreview,
  type ReclaimPreview,
  type ReclaimRoundView,
  type ReclaimSettings,
  roundFigures,
  roundTimes,
} from '../domain/reclaim.js';

/** The Slack user of an e-mail, or undefined when the workspace has none (users_not_found). */
export type LookupUser = (email: string) => Promise<string | undefined>;

export interface ReclaimOptions {
  records: Records;
  progress: ProgressStore;
  licensing: LicensingClient;
  outbox: Outbox & { kick(): void };
  /** The change context of the revoke use case (audit trail, intents, waitlist hand-on). */
  change: () => ChangeContext;
  audit: () => AuditLog | undefined;
  /** How many approved requests wait for a seat in a pool. */
  waiting: (poolId: string) => Promise<number>;
  now: () => Date;
  settings: ReclaimSettings;
  logger: Logger;
  /** How long the deadline's work of a round is one process's (default 5 minutes). */
  claimMs?: number;
}

export type ReclaimStartOutcome =
  | Exclude<ReclaimPreview, { kind: 'preview' }>
  | { kind: 'nobody' }
  /** One open round per pool: the pool (or, for every pool, each pool that had someone to ask) has one. */
  | { kind: 'already-open'; rounds: ReclaimOpenRound[] }
  | { kind: 'started'; roundId: string; asked: number; notInSlack: number; deadlineAt: string };

export interface ReclaimTickOutcome {
  /** Reminder messages enqueued (one per person). */
  reminded: number;
  /** Rounds whose deadline's work was done. */
  closed: number;
}

export interface Reclaim {
  preview(poolId: string | undefined, lookup: LookupUser): Promise<ReclaimPreview>;
  start(
    admin: string,
    poolId: string | undefined,
    policy: ReclaimPolicy,
    lookup: LookupUser,
  ): Promise<ReclaimStartOutcome>;
  answer(askId: string, user: string, choice: 'keep' | 'release'): Promise<ReclaimAnswerOutcome>;
  /** The admin's round message's figures, or undefined for an unknown round. */
  roundView(roundId: string): Promise<{ view: ReclaimRoundView; channel?: string; ts?: string } | undefined>;
  /**
   * Where the admin's round message was posted (chat.update targets it afterwards); false when another
   * replica's post was recorded first (that one is kept).
   */
  setMessage(roundId: string, channel: string, ts: string): Promise<boolean>;
  /** Due reminders and due deadlines. */
  tick(): Promise<ReclaimTickOutcome>;
}

const newId = (prefix: string) => `${prefix}${randomBytes(8).toString('hex')}`;
const DAY_MS = 86_400_000;
const OPEN_STATES: AskState[] = ['asked', 'releasing', 'expiring'];

/** Thrown inside a round's transaction when another round claimed one of its pools first: rolls it back. */
class PoolTaken extends Error {}

function askNotice(a: ReclaimAskRow, deadlineAt: string): ReclaimAskNotice {
  return {
    askId: a.id,
    poolId: a.pool_id,
    courseTitle: a.course_title,
    progress: Number(a.progress),
    standing: a.standing === 'stalled' ? 'stalled' : 'not-started',
    since: a.since,
    watched: Number(a.since_watched) === 1,
    deadlineAt,
  };
}

export function createReclaim(opts: ReclaimOptions): Reclaim {
  const { records, progress, licensing, outbox, now, settings, logger } = opts;
  const db: Kysely<Database> = records.db;
  const claimMs = opts.claimMs ?? 5 * 60_000;

  async function audit(entry: Parameters<AuditLog['record']>[0]): Promise<void> {
    await opts.audit()?.record(entry);
  }

  async function poolsFor(poolId: string | undefined): Promise<Pool[] | Exclude<ReclaimPreview, { kind: 'preview' }>> {
    if (poolId === undefined) return licensing.pools.list(INTERACTIVE);
    try {
      const pool = await licensing.pools.get(poolId, INTERACTIVE);
      if (!pool.transferable) return { kind: 'untransferable', poolId, courseTitle: pool.course.title };
      return [pool];
    } catch (error) {
      if (isLicensingError(error) && error.kind === 'not-found') return { kind: 'unknown-pool', poolId };
      throw error;
    }
  }

  /** The rounds open per pool (one at most each: table reclaim_open_pools). */
  async function openRounds(): Promise<Map<string, ReclaimOpenRound>> {
    const rows = await db
      .selectFrom('reclaim_open_pools')
      .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_open_pools.round_id')
      .select([
        'reclaim_open_pools.pool_id',
        'reclaim_rounds.id',
        'reclaim_rounds.admin',
        'reclaim_rounds.created_at',
        'reclaim_rounds.deadline_at',
      ])
      .where('reclaim_rounds.state', '=', 'open')
      .execute();
    return new Map(
      rows.map((r) => [
        r.pool_id,
        { poolId: r.pool_id, roundId: r.id, admin: r.admin, startedAt: r.created_at, deadlineAt: r.deadline_at },
      ]),
    );
  }

  async function preview(poolId: string | undefined, lookup: LookupUser): Promise<ReclaimPreview> {
    const everything = await progress.holders({ includeInactive: true, ...(poolId ? { poolId } : {}) });
    if (everything.length === 0 && (await progress.historyRows()) === 0) return { kind: 'no-records' };
    const pools = await poolsFor(poolId);
    if (!Array.isArray(pools)) return pools;
    const at = now();
    const transferable = pools.filter((p) => p.transferable);
    const since = new Date(at.getTime() - settings.keepDays * DAY_MS).toISOString();
    const kept = new Set(
      (
        await db
          .selectFrom('reclaim_asks')
          .select('license_id')
          .where('state', '=', 'kept')
          .where('answered_at', '>=', since)
          .execute()
      ).map((r) => r.license_id),
    );
    const open = new Set(
      (
        await db
          .selectFrom('reclaim_asks')
          .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
          .select('reclaim_asks.license_id')
          .where('reclaim_rounds.state', '=', 'open')
          .where('reclaim_asks.state', 'in', OPEN_STATES)
          .execute()
      ).map((r) => r.license_id),
    );
    // Released by a round: gone, though the progress records say so only after the next pass.
    const gone = new Set(
      (await db.selectFrom('reclaim_asks').select('license_id').where('state', '=', 'released').execute()).map(
        (r) => r.license_id,
      ),
    );
    const rounds = await openRounds();
    const out: ReclaimPoolPreview[] = [];
    for (const pool of transferable) {
      const holders = await progress.holders({ poolId: pool.id });
      const entry: ReclaimPoolPreview = {
        poolId: pool.id,
        courseTitle: pool.course.title,
        waiting: await opts.waiting(pool.id),
        ask: [],
        notInSlack: [],
        keptRecently: 0,
        alreadyAsked: 0,
      };
      // One open round per pool: nobody else here is asked before it closes.
      const openRound = rounds.get(pool.id);
      if (openRound) {
        out.push({ ...entry, openRound });
        continue;
      }
      for (const h of holders) {
        const standing = askStanding(h, at, settings);
        if (!standing || gone.has(h.licenseId)) continue;
        if (kept.has(h.licenseId)) {
          entry.keptRecently++;
          continue;
        }
        if (open.has(h.licenseId)) {
          entry.alreadyAsked++;
          continue;
        }
        const s = progressSince(h);
        const candidate: ReclaimCandidate = {
          licenseId: h.licenseId,
          poolId: pool.id,
          courseTitle: pool.course.title,
          studentEmail: h.studentEmail,
          studentName: h.studentName,
          standing,
          progress: h.progress,
          since: s.at,
          watched: s.watched,
          daysHeld: daysSince(h.start, at),
        };
        const user = await lookup(h.studentEmail);
        if (user) entry.ask.push({ ...candidate, slackUser: user });
        else entry.notInSlack.push(candidate);
      }
      if (entry.ask.length + entry.notInSlack.length + entry.keptRecently + entry.alreadyAsked > 0) out.push(entry);
    }
    return {
      kind: 'preview',
      ...(poolId ? { poolId } : {}),
      pools: out,
      untransferable: pools.length - transferable.length,
      settings,
    };
  }

  /**
   * Whether another round's ask about the same license was answered first: released (or being
   * released), or kept since this ask's round began. Then this ask's question is closed.
   */
  async function supersededBy(
    q: Kysely<Database>,
    ask: ReclaimAskRow,
    round: ReclaimRoundRow,
  ): Promise<'released' | 'kept' | undefined> {
    const others = await q
      .selectFrom('reclaim_asks')
      .select('state')
      .where('license_id', '=', ask.license_id)
      .where('id', '<>', ask.id)
      .where((eb) =>
        eb.or([
          eb('state', 'in', ['releasing', 'expiring', 'released']),
          eb.and([eb('state', '=', 'kept'), eb('answered_at', '>=', round.created_at)]),
        ]),
      )
      .execute();
    if (others.length === 0) return undefined;
    return others.some((o) => o.state !== 'kept') ? 'released' : 'kept';
  }

  async function enqueue(trx: Kysely<Database>, notice: ReclaimNotice, key?: string): Promise<void> {
    await outbox.enqueue(trx, notice, key);
  }

  async function roundRow(roundId: string): Promise<ReclaimRoundRow | undefined> {
    return db.selectFrom('reclaim_rounds').selectAll().where('id', '=', roundId).executeTakeFirst();
  }

  /** Marks an ask released, audits it, tells the holder and the admin's message. */
  async function released(ask: ReclaimAskRow, round: ReclaimRoundRow, by: 'holder' | 'deadline'): Promise<void> {
    const at = now().toISOString();
    await db.transaction().execute(async (trx) => {
      await trx
        .updateTable('reclaim_asks')
        .set({ state: 'released', answered_at: at })
        .where('id', '=', ask.id)
        .execute();
      // The holder who clicked is answered in place of the question; at a deadline they are told by DM.
      if (by === 'deadline')
        await enqueue(
          trx,
          { kind: 'reclaim-released', user: ask.slack_user, ask: askNotice(ask, round.deadline_at), by },
          `reclaim:${ask.id}:released`,
        );
      await enqueue(trx, { kind: 'reclaim-round', roundId: round.id });
    });
    outbox.kick();
    await audit({
      at,
      actor: by === 'holder' ? ask.slack_user : round.admin,
      action: 'reclaim-released',
      outcome: 'done',
      poolId: ask.pool_id,
      licenseId: ask.license_id,
      courseTitle: ask.course_title,
      studentName: ask.student_name,
      studentEmail: ask.student_email,
      detail: by === 'holder' ? 'the holder chose Release it' : 'no answer by the round’s deadline',
    });
  }

  /**
   * The revoke of an ask's license through the revoke use case (intent first, audited, the freed seat
   * handed to the waitlist). A license already inactive counts as released: the read-back after a kill.
   */
  async function release(ask: ReclaimAskRow, actor: string): Promise<{ ok: true } | { ok: false; sentence: string }> {
    const outcome = await revoke(opts.change(), { actor, licenseId: ask.license_id });
    if (outcome.kind === 'written') {
      if (outcome.write.kind === 'done') return { ok: true };
      const w = outcome.write;
      return { ok: false, sentence: 'sentence' in w ? w.sentence : 'the licensing service’s answer was lost' };
    }
    if (outcome.kind === 'blocked' && outcome.blocker === 'inactive') return { ok: true };
    if (outcome.kind === 'blocked')
      return { ok: false, sentence: `the license cannot be revoked (${outcome.blocker})` };
    return { ok: false, sentence: outcome.sentence };
  }

  async function remind(at: Date): Promise<number> {
    const iso = at.toISOString();
    const due = await db
      .selectFrom('reclaim_asks')
      .innerJoin('reclaim_rounds', 'reclaim_rounds.id', 'reclaim_asks.round_id')
      .selectAll('reclaim_asks')
      .select('reclaim_rounds.deadline_at')
      .where('reclaim_rounds.state', '=', 'open')
      .where('reclaim_rounds.remind_at', '<=', iso)
      .where('reclaim_rounds.deadline_at', '>', iso)
      .where('reclaim_asks.state', '=', 'asked')
      .where('reclaim_asks.reminded_at', 'is', null)
      .orderBy('reclaim_asks.id')
      .execute();
    const byUser = new Map<string, typeof due>();
    for (const a of due) byUser.set(a.slack_user, [...(byUser.get(a.slack_user) ?? []), a]);
    const dayAgo = new Date(at.getTime() - DAY_MS).toISOString();
    let sent = 0;
    for (const [user, asks] of byUser) {
      const today = await db
        .selectFrom('reclaim_asks')
        .select('id')
        .where('slack_user', '=', user)
        .where('reminded_at', '>', dayAgo)
        .executeTakeFirst();
      if (today) continue; // at most one reminder a person a day; the rest go with tomorrow's
      const claimed = await db.transaction().execute(async (trx) => {
        const mine: typeof asks = [];
        for (const a of asks) {
          const r = await trx
            .updateTable('reclaim_asks')
            .set({ reminded_at: iso })
            .where('id', '=', a.id)
            .where('reminded_at', 'is', null)
            .where('state', '=', 'asked')
            .executeTakeFirst();
          if (Number(r.numUpdatedRows) === 1) mine.push(a);
        }
        if (mine.length > 0)
          await enqueue(
            trx,
            { kind: 'reclaim-reminder', user, asks: mine.map((a) => askNotice(a, a.deadline_at)) },
            `reclaim:remind:${user}:${iso.slice(0, 10)}`,
          );
        return mine.length;
      });
      if (claimed > 0) sent++;
    }
    if (sent > 0) outbox.kick();
    return sent;
  }

  async function closeDue(at: Date): Promise<number> {
    const iso = at.toISOString();
    const due = await db
      .selectFrom('reclaim_rounds')
      .selectAll()
      .where('state', '=', 'open')
      .where('deadline_at', '<=', iso)
      .execute();
    let closed = 0;
    for (const round of due) {
      // One process does a round's deadline work; a claim left by a killed process runs out.
      const claim = await db
        .updateTable('reclaim_rounds')
        .set({ claimed_until: new Date(at.getTime() + claimMs).toISOString() })
        .where('id', '=', round.id)
        .where('state', '=', 'open')
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', iso)]))
        .executeTakeFirst();
      if (Number(claim.numUpdatedRows) !== 1) continue;
      const asks = await db
        .selectFrom('reclaim_asks')
        .selectAll()
        .where('round_id', '=', round.id)
        .where('state', 'in', ['asked', 'expiring', 'releasing'])
        .orderBy('id')
        .execute();
      for (const ask of asks) {
        // Answered in another round (rounds written before one open round per pool): that answer stands.
        // Nothing is sent or told again; the ask takes its outcome, so the figures stay true.
        const by = ask.state === 'releasing' ? undefined : await supersededBy(db, ask, round);
        if (by) {
          await db
            .updateTable('reclaim_asks')
            .set({ state: by, detail: `${by} in another reclaim round` })
            .where('id', '=', ask.id)
            .where('state', 'in', ['asked', 'expiring'])
            .execute();
          continue;
        }
        // 'releasing': the holder chose Release and the process died before its outcome was recorded;
        // the holder's choice stands whatever the policy, and the read-back tells whether it was sent.
        if (round.policy !== 'release' && ask.state !== 'releasing') {
          await db
            .updateTable('reclaim_asks')
            .set({ state: 'unanswered' })
            .where('id', '=', ask.id)
            .where('state', 'in', ['asked', 'expiring'])
            .execute();
          continue;
        }
        const mine = await db
          .updateTable('reclaim_asks')
          .set({ state: 'expiring' })
          .where('id', '=', ask.id)
          .where('state', 'in', ['asked', 'expiring', 'releasing'])
          .executeTakeFirst();
        if (Number(mine.numUpdatedRows) !== 1) continue;
        const result = await release(ask, round.admin);
        if (result.ok) await released(ask, round, 'deadline');
        else {
          await db
            .updateTable('reclaim_asks')
            .set({ state: 'failed', detail: result.sentence })
            .where('id', '=', ask.id)
            .execute();
          await audit({
            at: now().toISOString(),
            actor: round.admin,
            action: 'reclaim-released',
            outcome: 'failed',
            poolId: ask.pool_id,
            licenseId: ask.license_id,
            courseTitle: ask.course_title,
            studentName: ask.student_name,
            studentEmail: ask.student_email,
            detail: result.sentence,
          });
        }
      }
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('reclaim_rounds')
          .set({ state: 'closed', closed_at: now().toISOString() })
          .where('id', '=', round.id)
          .execute();
        await trx.deleteFrom('reclaim_open_pools').where('round_id', '=', round.id).execute();
        await enqueue(trx, { kind: 'reclaim-round', roundId: round.id }, `reclaim:${round.id}:closed`);
      });
      outbox.kick();
      closed++;
    }
    return closed;
  }

  return {
    preview,

    async start(admin, poolId, policy, lookup) {
      if (poolId !== undefined) {
        const open = (await openRounds()).get(poolId);
        if (open) return { kind: 'already-open', rounds: [open] };
      }
      const p = await preview(poolId, lookup);
      if (p.kind !== 'preview') return p;
      const ask = p.pools.flatMap((x) => x.ask);
      const notInSlack = p.pools.reduce((n, x) => n + x.notInSlack.length, 0);
      if (ask.length === 0) {
        const open = p.pools.flatMap((x) => (x.openRound ? [x.openRound] : []));
        return open.length > 0 ? { kind: 'already-open', rounds: open } : { kind: 'nobody' };
      }
      const at = now();
      const { remindAt, deadlineAt } = roundTimes(at, settings);
      const roundId = newId('rr');
      const pools = [...new Set(ask.map((c) => c.poolId))];
      const writeRound = async () => {
        await db.transaction().execute(async (trx) => {
          // One open round per pool, held by the database whichever replica runs this: the first claim
          // wins, a second is refused by the primary key and this whole transaction rolls back.
          for (const pool of pools) {
            const claimed = await trx
              .insertInto('reclaim_open_pools')
              .values({ pool_id: pool, round_id: roundId })
              .onConflict((oc) => oc.column('pool_id').doNothing())
              .returning('pool_id')
              .execute();
            if (claimed.length !== 1) throw new PoolTaken(pool);
          }
          await trx
            .insertInto('reclaim_rounds')
            .values({
              id: roundId,
              admin,
              pool_id: poolId ?? null,
              policy,
              state: 'open',
              created_at: at.toISOString(),
              remind_at: remindAt,
              deadline_at: deadlineAt,
              not_in_slack: notInSlack,
              message_channel: null,
              message_ts: null,
              claimed_until: null,
              closed_at: null,
            })
            .execute();
          for (const c of ask) {
            const row: ReclaimAskRow = {
              id: newId('ra'),
              round_id: roundId,
              license_id: c.licenseId,
              pool_id: c.poolId,
              course_title: c.courseTitle,
              slack_user: c.slackUser ?? '',
              student_email: c.studentEmail.toLowerCase(),
              student_name: c.studentName,
              standing: c.standing,
              progress: c.progress,
              since: c.since,
              since_watched: c.watched ? 1 : 0,
              state: 'asked',
              answered_at: null,
              reminded_at: null,
              detail: null,
            };
            await trx.insertInto('reclaim_asks').values(row).execute();
            await enqueue(
              trx,
              { kind: 'reclaim-ask', user: row.slack_user, ask: askNotice(row, deadlineAt) },
              `reclaim:${row.id}:ask`,
            );
          }
          await enqueue(trx, { kind: 'reclaim-round', roundId }, `reclaim:${roundId}:posted`);
        });
      };
      try {
        await writeRound();
      } catch (error) {
        if (!(error instanceof PoolTaken)) throw error;
        // Another Start (another admin, a second click, another replica) claimed a pool first.
        const open = await openRounds();
        const rounds = pools.flatMap((id) => {
          const r = open.get(id);
          return r ? [r] : [];
        });
        logger.info('reclaim round not started: a round is already open for its pool', { admin, poolId });
        return { kind: 'already-open', rounds };
      }
      outbox.kick();
      logger.info('reclaim round started', { roundId, admin, asked: ask.length, notInSlack, policy });
      return { kind: 'started', roundId, asked: ask.length, notInSlack, deadlineAt };
    },

    async answer(askId, user, choice) {
      const ask = await db.selectFrom('reclaim_asks').selectAll().where('id', '=', askId).executeTakeFirst();
      if (!ask || ask.slack_user !== user) return { kind: 'not-yours' };
      const round = await roundRow(ask.round_id);
      if (!round) return { kind: 'not-yours' };
      const notice = askNotice(ask, round.deadline_at);
      const at = now();
      if (ask.state === 'kept' || ask.state === 'released' || ask.state === 'releasing')
        return { kind: 'already', state: ask.state, ask: notice };
      // A closed round (or one past its deadline) takes no answer: nothing is recorded.
      if (ask.state !== 'asked' || round.state !== 'open' || at.toISOString() >= round.deadline_at)
        return { kind: 'too-late', ask: notice };
      const next = choice === 'keep' ? 'kept' : 'releasing';
      const claim = await db.transaction().execute(async (trx) => {
        // Another round's ask about the same license answered first (rounds from before one open round
        // per pool, or a race of two answers): this question is closed. On PostgreSQL the license's asks
        // are locked so that two answers on two replicas are taken one after the other.
        if (records.dialect === 'postgres')
          await trx
            .selectFrom('reclaim_asks')
            .select('id')
            .where('license_id', '=', ask.license_id)
            .orderBy('id')
            .forUpdate()
            .execute();
        const by = await supersededBy(trx, ask, round);
        if (by) return { by };
        const r = await trx
          .updateTable('reclaim_asks')
          .set({ state: next, ...(choice === 'keep' ? { answered_at: at.toISOString() } : {}) })
          .where('id', '=', askId)
          .where('state', '=', 'asked')
          .executeTakeFirst();
        const won = Number(r.numUpdatedRows) === 1;
        if (won && choice === 'keep') await enqueue(trx, { kind: 'reclaim-round', roundId: round.id });
        return { won };
      });
      if ('by' in claim) return { kind: 'superseded', ask: notice, by: claim.by };
      if (!claim.won) {
        const now2 = await db.selectFrom('reclaim_asks').select('state').where('id', '=', askId).executeTakeFirst();
        const state = (now2?.state ?? 'asked') as AskState;
        return state === 'kept' || state === 'released' || state === 'releasing'
          ? { kind: 'already', state, ask: notice }
          : { kind: 'too-late', ask: notice };
      }
      if (choice === 'keep') {
        outbox.kick();
        await audit({
          at: at.toISOString(),
          actor: user,
          action: 'reclaim-kept',
          outcome: 'done',
          poolId: ask.pool_id,
          licenseId: ask.license_id,
          courseTitle: ask.course_title,
          studentName: ask.student_name,
          studentEmail: ask.student_email,
        });
        return { kind: 'kept', ask: notice, keepDays: settings.keepDays };
      }
      const result = await release(ask, user);
      if (result.ok) {
        await released(ask, round, 'holder');
        return { kind: 'released', ask: notice };
      }
      // Nothing released: the ask is open again, so the holder (or the deadline) can try again.
      await db
        .updateTable('reclaim_asks')
        .set({ state: 'asked' })
        .where('id', '=', askId)
        .where('state', '=', 'releasing')
        .execute();
      return { kind: 'release-failed', ask: notice, sentence: result.sentence };
    },

    async roundView(roundId) {
      const round = await roundRow(roundId);
      if (!round) return undefined;
      const asks = await db.selectFrom('reclaim_asks').selectAll().where('round_id', '=', roundId).execute();
      const count = (state: AskState) => asks.filter((a) => a.state === state).length;
      const closed = round.state === 'closed';
      const view: ReclaimRoundView = {
        id: round.id,
        admin: round.admin,
        ...(round.pool_id ? { poolId: round.pool_id } : {}),
        policy: round.policy === 'release' ? 'release' : 'list',
        closed,
        deadlineAt: round.deadline_at,
        ...roundFigures(count),
        notInSlack: Number(round.not_in_slack),
        listed: asks
          .filter((a) => a.state === 'unanswered' || a.state === 'failed')
          .map((a) => ({
            studentName: a.student_name,
            studentEmail: a.student_email,
            courseTitle: a.course_title,
            licenseId: a.license_id,
          })),
      };
      return {
        view,
        ...(round.message_channel ? { channel: round.message_channel } : {}),
        ...(round.message_ts ? { ts: round.message_ts } : {}),
      };
    },

    async setMessage(roundId, channel, ts) {
      const r = await db
        .updateTable('reclaim_rounds')
        .set({ message_channel: channel, message_ts: ts })
        .where('id', '=', roundId)
        .where('message_ts', 'is', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    async tick() {
      const at = now();
      const reminded = await remind(at);
      const closed = await closeDue(at);
      return { reminded, closed };
    },
  };
}
