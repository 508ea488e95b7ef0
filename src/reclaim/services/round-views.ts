/**
 * The rounds as people see them (docs/reclaim.md): the admin's round message, with its figures and
 * the holders left for the admin to look at, and the rounds App Home lists for admins (no names).
 */
import type { Records } from '../../kernel/db/open.js';
import type { ReclaimRoundRow } from '../../kernel/db/schema.js';
import { createReclaimStore, type ReclaimStore } from '../db/store.js';
import { type AskState, type ReclaimRoundSummary, type ReclaimRoundView, roundFigures } from '../domain/reclaim.js';

/** Rounds App Home lists: open, or closed within this many days. */
const HOME_ROUNDS_DAYS = 7;
const HOME_ROUNDS = 3;

/** The admin's round message's figures and where it was posted, or undefined for an unknown round. */
export async function roundView(
  store: ReclaimStore,
  roundId: string,
): Promise<{ view: ReclaimRoundView; channel?: string; ts?: string } | undefined> {
  const round = await store.round(roundId);
  if (!round) return undefined;
  const asks = await store.asksOf(roundId);
  const count = (state: AskState) => asks.filter((a) => a.state === state).length;
  const view: ReclaimRoundView = {
    ...summaryOf(round, count),
    admin: round.admin,
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
}

/** The reclaim rounds still open or closed lately, newest first, with their figures (one grouped count). */
export async function recentRounds(records: Records, now: Date, limit = HOME_ROUNDS): Promise<ReclaimRoundSummary[]> {
  const store = createReclaimStore(records);
  const since = new Date(now.getTime() - HOME_ROUNDS_DAYS * 86_400_000).toISOString();
  const rounds = await store.recentRounds(since, limit);
  if (rounds.length === 0) return [];
  const counts = await store.askCounts(rounds.map((r) => r.id));
  return rounds.map((r) =>
    summaryOf(r, (state) => counts.find((c) => c.round_id === r.id && c.state === state)?.n ?? 0),
  );
}

/** A round's figures, given how many of its asks are in each state. */
function summaryOf(r: ReclaimRoundRow, count: (state: AskState) => number): ReclaimRoundSummary {
  return {
    id: r.id,
    ...(r.pool_id ? { poolId: r.pool_id } : {}),
    policy: r.policy === 'release' ? 'release' : 'list',
    closed: r.state === 'closed',
    deadlineAt: r.deadline_at,
    ...roundFigures(count),
    notInSlack: Number(r.not_in_slack),
  };
}
