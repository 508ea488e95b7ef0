/**
 * The dry run of a bulk assignment and its drafts. Reads, for a person waiting in the modal
 * (interactive priority): the pools (fresh: seats free must be current), `me` for the allowed domains
 * (cached), then who already holds the course, the cheapest of three ways (chooseEnrolmentRead in
 * domain/bulk-plan.ts gives each one's cost): look each listed e-mail up, walk the licenses of the
 * course's pools, or walk every active license. Never one request per pool beyond what the cheapest way
 * costs, so a course with a hundred pools costs no more than one with two. No writes.
 */
import { randomBytes } from 'node:crypto';
import type { License, Pool } from '../../kernel/domain/types.js';
import { NotFoundError } from '../../kernel/licensing/errors.js';
import type { LicensingClient, Logger } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { type BulkJob, newJobId } from '../db/store.js';
import type { BulkLine } from '../domain/bulk-list.js';
import type { BulkDraft } from '../domain/bulk-plan.js';
import { type BulkPlan, chooseEnrolmentRead, type EnrolmentRead, planBulk } from '../domain/bulk-plan.js';

export type { BulkDraft };

/** A dry run stays valid this long: seats and enrolments drift, so an old one is read again. */
export const DRAFT_TTL_MS = 30 * 60_000;

export async function dryRunBulk(
  licensing: LicensingClient,
  input: { poolId: string; rows: readonly BulkLine[] },
  log?: Pick<Logger, 'debug'>,
): Promise<{ pool: Pool; plan: BulkPlan }> {
  const pools = await licensing.pools.list({ ...INTERACTIVE, fresh: true });
  const pool = pools.find((p) => p.id === input.poolId);
  if (!pool) throw new NotFoundError({ endpoint: 'GET /v1/pool/{id}' });
  const allowedDomains = await licensing.allowedDomains(INTERACTIVE);
  // The rows that would be ready if nobody held the course: only their e-mails need checking.
  const unchecked = planBulk({ rows: input.rows, pool, allowedDomains, enrolled: new Set(), poolLicenses: [] });
  const emails = [...new Set(unchecked.rows.filter((r) => r.verdict === 'ready').map((r) => r.email.toLowerCase()))];
  const choice = chooseEnrolmentRead({
    emails: emails.length,
    pools,
    courseId: pool.course.id,
    pageSize: licensing.pageSize(),
  });
  log?.debug('bulk dry run: enrolment read', { way: choice.way, cost: choice.cost, pool: pool.id });
  const { enrolled, poolLicenses } = await readEnrolment(licensing, choice.way, pool, pools, emails);
  let plan = planBulk({ rows: input.rows, pool, allowedDomains, enrolled, poolLicenses: poolLicenses ?? [] });
  // The lookup does not see the pool's licenses; a recycle must name them, so read them only then.
  if (poolLicenses === undefined && plan.shortfall > 0 && pool.transferable) {
    const licenses = await licensing.pools.allLicenses(pool.id, {}, INTERACTIVE);
    plan = planBulk({ rows: input.rows, pool, allowedDomains, enrolled, poolLicenses: licenses });
  }
  return { pool, plan };
}

/** Lower-case e-mails holding an active license for the course, and the pool's licenses when the way read them. */
async function readEnrolment(
  licensing: LicensingClient,
  way: EnrolmentRead,
  pool: Pool,
  pools: readonly Pool[],
  emails: readonly string[],
): Promise<{ enrolled: Set<string>; poolLicenses: License[] | undefined }> {
  const enrolled = new Set<string>();
  if (way === 'lookup') {
    // Sent together: the limiter paces them; none waits for another's answer.
    const students = await Promise.all(
      emails.map((email) =>
        licensing.students.find({ email }, INTERACTIVE).catch((error: unknown) => {
          // No such student, so not enrolled. (A deployment without the endpoint answers 404 too: the
          // job then meets "already enrolled" as a refused row, which it reports; nothing is lost.)
          if (error instanceof NotFoundError) return undefined;
          throw error;
        }),
      ),
    );
    students.forEach((student, i) => {
      const holds = student?.courses.some((c) => c.id === pool.course.id && c.licenseActive);
      if (holds) enrolled.add(emails[i] ?? '');
    });
    return { enrolled, poolLicenses: undefined };
  }
  const licenses =
    way === 'licenses'
      ? (await licensing.licenses.all({}, INTERACTIVE)).filter((l) => l.courseId === pool.course.id)
      : (
          await Promise.all(
            pools
              .filter((p) => p.course.id === pool.course.id && p.assignedLicenses > 0)
              .map((p) => licensing.pools.allLicenses(p.id, {}, INTERACTIVE)),
          )
        ).flat();
  for (const l of licenses) if (l.active) enrolled.add(l.student.email.toLowerCase());
  return { enrolled, poolLicenses: licenses.filter((l) => l.poolId === pool.id) };
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
