/**
 * A member deactivated (Slack's `user_change` with `deleted: true`, or found so by the weekly sweep):
 * their active licenses, found by e-mail (one student lookup through the shared limiter, and each
 * pool's read, cached), go on hold until the grace ends; the alert channel is told once. A
 * reactivation while they wait cancels the hold, told once too. Someone who holds nothing is only
 * logged.
 */
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { CallOptions } from '../../kernel/licensing/types.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { dueOf, type HeldSeat, type HoldOutcome, type LeaverNotice } from '../domain/leavers.js';
import type { LeaversContext } from './context.js';

const BACKGROUND: CallOptions = { priority: 'background' };

export interface Leaver {
  /** From the event's profile, else users.info, else (the sweep) the e-mail looked up. */
  email?: string | undefined;
  slackUser?: string | undefined;
  bySweep?: boolean;
}

/** The student's active licenses, each with its pool's transferability and course. */
async function activeSeats(ctx: LeaversContext, email: string): Promise<HeldSeat[] | 'no-student'> {
  let student: Awaited<ReturnType<typeof ctx.licensing.students.find>>;
  try {
    student = await ctx.licensing.students.find({ email }, BACKGROUND);
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return 'no-student';
    throw error;
  }
  const now = ctx.now().getTime();
  const seats: HeldSeat[] = [];
  for (const c of student.courses) {
    const end = Date.parse(c.end);
    if (!c.licenseActive || (!Number.isNaN(end) && end <= now)) continue;
    const pool = await ctx.licensing.pools.get(c.poolId, BACKGROUND).catch((error: unknown) => {
      if (isLicensingError(error) && error.kind === 'not-found') return undefined;
      throw error;
    });
    seats.push({
      licenseId: c.licenseId,
      poolId: c.poolId,
      ...(c.title ? { courseTitle: c.title } : {}),
      // A pool no longer found gives nothing back: only listed.
      transferable: pool?.transferable === true,
    });
  }
  return seats;
}

export async function holdLeaver(ctx: LeaversContext, leaver: Leaver): Promise<HoldOutcome> {
  const { logger } = ctx;
  if (!ctx.settings.on) return { kind: 'off' };
  const email = leaver.email?.trim().toLowerCase();
  if (!email) {
    logger.info('leavers: a deactivated member without an e-mail; nothing to hold', { user: leaver.slackUser });
    return { kind: 'nothing', reason: 'no-email' };
  }
  let seats: HeldSeat[] | 'no-student';
  try {
    seats = await activeSeats(ctx, email);
  } catch (error) {
    logger.warn('leavers: could not read the licenses of a deactivated member; the next sweep tries again', {
      user: leaver.slackUser,
      error: String(error),
    });
    return { kind: 'unread', sentence: errorSentence(error, 'student', 'admin') };
  }
  if (seats === 'no-student' || seats.length === 0) {
    const reason = seats === 'no-student' ? 'no-student' : 'no-license';
    logger.info('leavers: a deactivated member holds no license; nothing to hold', { user: leaver.slackUser, reason });
    return { kind: 'nothing', reason };
  }
  const since = ctx.now();
  const due = dueOf(since, ctx.settings.graceDays);
  const held = await ctx.store.transaction(async (tx) => {
    const ids = await tx.hold({
      email,
      ...(leaver.slackUser ? { slackUser: leaver.slackUser } : {}),
      since,
      due,
      seats,
    });
    if (ids.length > 0 && ctx.channel) {
      const notice: LeaverNotice = {
        kind: 'leaver-held',
        channel: ctx.channel,
        ...(leaver.slackUser ? { slackUser: leaver.slackUser } : {}),
        seats: seats.filter((s) => ids.includes(s.licenseId)),
        due: due.toISOString(),
        ...(leaver.bySweep ? { bySweep: true } : {}),
      };
      await ctx.outbox.enqueue(tx.handle, notice, `leaver-held:${email}:${since.toISOString()}`);
    }
    return ids;
  });
  if (held.length > 0) {
    ctx.outbox.kick();
    logger.info('leavers: a deactivated member’s licenses are on hold', {
      user: leaver.slackUser,
      held: held.length,
      due: due.toISOString(),
    });
    if (ctx.settings.graceDays === 0) ctx.kick?.();
  }
  return { kind: 'held', seats, due: due.toISOString(), fresh: held.length > 0 };
}

/** A reactivation: the holds still waiting are cancelled, and the alert channel told once; how many. */
export async function cancelHold(ctx: LeaversContext, leaver: Leaver): Promise<number> {
  const email = leaver.email?.trim().toLowerCase();
  if (!ctx.settings.on || !email) return 0;
  const cancelled = await ctx.store.transaction(async (tx) => {
    const rows = await tx.cancel(email, ctx.now());
    const first = rows[0];
    if (first && ctx.channel) {
      const slackUser = leaver.slackUser ?? first.slack_user ?? undefined;
      const notice: LeaverNotice = {
        kind: 'leaver-cancelled',
        channel: ctx.channel,
        ...(slackUser ? { slackUser } : {}),
        seats: rows.length,
      };
      await ctx.outbox.enqueue(tx.handle, notice, `leaver-cancelled:${email}:${first.since}`);
    }
    return rows.length;
  });
  if (cancelled > 0) {
    ctx.outbox.kick();
    ctx.logger.info('leavers: reactivated within the grace; the hold is cancelled', {
      user: leaver.slackUser,
      cancelled,
    });
  }
  return cancelled;
}
