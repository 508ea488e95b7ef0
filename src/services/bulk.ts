/**
 * The dry run of a bulk assignment and its drafts. Reads, for a person waiting
 * in the modal (interactive priority): the pools (fresh: seats free must be current), `me` for the
 * allowed domains (cached), and the active licenses of each pool of the same course, which tells who
 * is already enrolled: one request per 100 licenses, never one per row. No writes.
 */
import { randomBytes } from 'node:crypto';
import type { BulkLine } from '../domain/bulk-list.js';
import type { BulkDraft } from '../domain/bulk-plan.js';
import { type BulkPlan, planBulk } from '../domain/bulk-plan.js';
import type { Pool } from '../domain/types.js';
import { NotFoundError } from '../licensing/errors.js';
import type { LicensingClient } from '../licensing/types.js';
import { type BulkJob, newJobId } from './bulk-jobs.js';
import { INTERACTIVE } from './interactive.js';

export type { BulkDraft };

/** A dry run stays valid this long: seats and enrolments drift, so an old one is read again. */
export const DRAFT_TTL_MS = 30 * 60_000;

export async function dryRunBulk(
  licensing: LicensingClient,
  input: { poolId: string; rows: readonly BulkLine[] },
): Promise<{ pool: Pool; plan: BulkPlan }> {
  const pools = await licensing.pools.list({ ...INTERACTIVE, fresh: true });
  const pool = pools.find((p) => p.id === input.poolId);
  if (!pool) throw new NotFoundError({ endpoint: 'GET /v1/pool/{id}' });
  const me = await licensing.me(INTERACTIVE);
  const enrolled = new Set<string>();
  let poolLicenses: Awaited<ReturnType<LicensingClient['pools']['allLicenses']>> = [];
  for (const p of pools.filter((x) => x.course.id === pool.course.id && x.assignedLicenses > 0)) {
    const licenses = await licensing.pools.allLicenses(p.id, {}, INTERACTIVE);
    for (const l of licenses) if (l.active) enrolled.add(l.student.email.toLowerCase());
    if (p.id === pool.id) poolLicenses = licenses;
  }
  const plan = planBulk({
    rows: input.rows,
    pool,
    allowedDomains: me.allowedDomainsForTransferableLicenses,
    enrolled,
    poolLicenses,
  });
  return { pool, plan };
}

/** Drafts between the dry run and the confirmation, in memory: a restart asks for a new dry run. */
export function createDraftStore(now: () => number = Date.now) {
  const drafts = new Map<string, BulkDraft>();
  const sweep = () => {
    for (const [id, d] of drafts) if (now() - d.createdAt > DRAFT_TTL_MS) drafts.delete(id);
  };
  return {
    put(draft: Omit<BulkDraft, 'id' | 'createdAt'>): BulkDraft {
      sweep();
      const full = { ...draft, id: randomBytes(9).toString('base64url'), createdAt: now() };
      drafts.set(full.id, full);
      return full;
    },
    /** Only the person who ran the dry run may confirm it. */
    take(id: string, requester: string): BulkDraft | undefined {
      sweep();
      const d = drafts.get(id);
      if (!d || d.requester !== requester) return undefined;
      drafts.delete(id);
      return d;
    },
    peek(id: string, requester: string): BulkDraft | undefined {
      const d = drafts.get(id);
      return d && d.requester === requester ? d : undefined;
    },
  };
}

export type DraftStore = ReturnType<typeof createDraftStore>;

export function jobFromDraft(draft: BulkDraft, now: Date): BulkJob {
  const ready = draft.plan.rows.filter((r) => r.verdict === 'ready');
  return {
    version: 1,
    id: newJobId(now),
    requester: draft.requester,
    poolId: draft.pool.id,
    courseTitle: draft.pool.course.title,
    ...(draft.endDate ? { endDate: draft.endDate } : {}),
    createdAt: now.toISOString(),
    state: 'running',
    rows: ready.map((r) => ({
      line: r.line,
      email: r.email,
      ...(r.name ? { name: r.name } : {}),
      ...(r.recycle ? { recycle: true } : {}),
      state: 'pending' as const,
    })),
    notSent: draft.plan.rows
      .filter((r) => r.verdict !== 'ready')
      .map((r) => ({ line: r.line, email: r.email, verdict: r.verdict })),
  };
}
