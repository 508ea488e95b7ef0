/**
 * Who a round would ask (docs/reclaim.md, "Preview"): the holders of transferable pools who stalled
 * or never started, by the progress records, less those who chose Keep lately, those asked in a round
 * still open and those a round released. Nothing is written.
 */
import type { Pool } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import {
  daysSince,
  type LicenseProgress,
  type ProgressThresholds,
  progressSince,
  progressStanding,
} from '../../progress/index.js';
import type {
  AskStanding,
  ReclaimCandidate,
  ReclaimOpenRound,
  ReclaimPoolPreview,
  ReclaimPreview,
} from '../domain/reclaim.js';
import { DAY_MS, type LookupUser, type ReclaimContext } from './reclaim-context.js';

/**
 * Whether a holder is one to ask: stalled or not started, by the configured thresholds. A use case's
 * rule, not the domain's: the domain (read by the configuration at start) takes nothing of progress
 * but its types, so loading the settings never loads another feature.
 */
export function askStanding(
  p: Parameters<typeof progressStanding>[0],
  now: Date,
  thresholds: ProgressThresholds,
): AskStanding | undefined {
  const s = progressStanding(p, now, thresholds);
  return s === 'stalled' || s === 'not-started' ? s : undefined;
}

type NoPreview = Exclude<ReclaimPreview, { kind: 'preview' }>;

/** Who is left out of any round: kept lately, asked in an open round, released by a round. */
interface LeftOut {
  kept: Set<string>;
  asked: Set<string>;
  gone: Set<string>;
}

export async function preview(
  ctx: ReclaimContext,
  poolId: string | undefined,
  lookup: LookupUser,
): Promise<ReclaimPreview> {
  const { progress, store, settings } = ctx;
  const everything = await progress.holders({ includeInactive: true, ...(poolId ? { poolId } : {}) });
  if (everything.length === 0 && (await progress.historyRows()) === 0) return { kind: 'no-records' };
  const pools = await poolsFor(ctx, poolId);
  if (!Array.isArray(pools)) return pools;
  const at = ctx.now();
  const transferable = pools.filter((p) => p.transferable);
  const left: LeftOut = {
    kept: await store.keptSince(new Date(at.getTime() - settings.keepDays * DAY_MS).toISOString()),
    asked: await store.askedInOpenRounds(),
    // Released by a round: gone, though the progress records say so only after the next pass.
    gone: await store.releasedLicenses(),
  };
  const rounds = await store.openRounds();
  const out: ReclaimPoolPreview[] = [];
  for (const pool of transferable) {
    const entry = await poolPreview(ctx, pool, rounds.get(pool.id), left, lookup, at);
    const someone = entry.ask.length + entry.notInSlack.length + entry.keptRecently + entry.alreadyAsked > 0;
    if (entry.openRound || someone) out.push(entry);
  }
  return {
    kind: 'preview',
    ...(poolId ? { poolId } : {}),
    pools: out,
    untransferable: pools.length - transferable.length,
    settings,
  };
}

async function poolsFor(ctx: ReclaimContext, poolId: string | undefined): Promise<Pool[] | NoPreview> {
  if (poolId === undefined) return ctx.licensing.pools.list(INTERACTIVE);
  try {
    const pool = await ctx.licensing.pools.get(poolId, INTERACTIVE);
    if (!pool.transferable) return { kind: 'untransferable', poolId, courseTitle: pool.course.title };
    return [pool];
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return { kind: 'unknown-pool', poolId };
    throw error;
  }
}

/** One pool's holders to ask, those who cannot be asked (not in Slack) and those left out. */
async function poolPreview(
  ctx: ReclaimContext,
  pool: Pool,
  openRound: ReclaimOpenRound | undefined,
  left: LeftOut,
  lookup: LookupUser,
  at: Date,
): Promise<ReclaimPoolPreview> {
  const holders = await ctx.progress.holders({ poolId: pool.id });
  const entry: ReclaimPoolPreview = {
    poolId: pool.id,
    courseTitle: pool.course.title,
    waiting: await ctx.waiting(pool.id),
    ask: [],
    notInSlack: [],
    keptRecently: 0,
    alreadyAsked: 0,
  };
  // One open round per pool: nobody else here is asked before it closes.
  if (openRound) return { ...entry, openRound };
  for (const h of holders) {
    const standing = askStanding(h, at, ctx.settings);
    if (!standing || left.gone.has(h.licenseId)) continue;
    if (left.kept.has(h.licenseId)) entry.keptRecently++;
    else if (left.asked.has(h.licenseId)) entry.alreadyAsked++;
    else {
      const candidate = candidateOf(h, pool, standing, at);
      const user = await lookup(h.studentEmail);
      if (user) entry.ask.push({ ...candidate, slackUser: user });
      else entry.notInSlack.push(candidate);
    }
  }
  return entry;
}

function candidateOf(h: LicenseProgress, pool: Pool, standing: AskStanding, at: Date): ReclaimCandidate {
  const s = progressSince(h);
  return {
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
}
