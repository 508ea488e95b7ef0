/**
 * Giving and taking roles (docs/roles-and-approvals.md): an owner's give is checked against the pools
 * as they are now (every chosen pool exists, the course has pools) and against the grants (the same
 * role on the same scope once), then stored and audited; a take deletes and audits. Who may do it and
 * to whom (owners only; a full member or a user group) is the Slack side's check, before these.
 */
import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { GrantStore } from '../db/grants.js';
import { canonicalPools, type Grant, type GrantScope, type NewGrant, sameGrant, scopePlain } from '../domain/grants.js';
import type { PoolIndex } from './pool-index.js';

/** Why a give changed nothing: a chosen pool that does not exist, a course without pools, no pool, the same role again. */
export type GiveRefusal =
  | { reason: 'no-such-pool'; missing: string[] }
  | { reason: 'course-without-pools' }
  | { reason: 'no-pool-chosen' }
  | { reason: 'duplicate'; scope: GrantScope };

export type GiveOutcome = { kind: 'given'; grant: Grant } | ({ kind: 'refused' } & GiveRefusal);
export type TakeOutcome = { kind: 'taken'; grant: Grant } | { kind: 'gone' };

export interface GrantService {
  list(): Promise<Grant[]>;
  give(actor: string, wanted: NewGrant, audit: AuditLog): Promise<GiveOutcome>;
  take(actor: string, grantId: string, audit: AuditLog): Promise<TakeOutcome>;
}

/** The scope as it will be stored, or why it cannot be: pools that do not exist, a course without pools. */
async function checkedScope(index: PoolIndex, scope: GrantScope): Promise<GrantScope | GiveRefusal> {
  if (scope.kind === 'all') return scope;
  const pools = await index.pools(true);
  if (scope.kind === 'course') {
    const ofCourse = pools.filter((p) => p.course.id === scope.courseId);
    if (ofCourse.length === 0) return { reason: 'course-without-pools' };
    return { kind: 'course', courseId: scope.courseId, courseTitle: ofCourse[0]?.course.title ?? scope.courseId };
  }
  const ids = canonicalPools(scope.poolIds);
  if (ids.length === 0) return { reason: 'no-pool-chosen' };
  const known = new Set(pools.map((p) => p.id));
  const missing = ids.filter((id) => !known.has(id));
  if (missing.length > 0) return { reason: 'no-such-pool', missing };
  return { kind: 'pools', poolIds: ids };
}

export function createGrantService(p: {
  store: GrantStore;
  index: PoolIndex;
  now: () => Date;
  /** Told after every change, so this process's role checks see it at once. */
  changed?: () => void;
}): GrantService {
  const record = (audit: AuditLog, actor: string, action: 'role-given' | 'role-taken', grant: NewGrant) =>
    audit.record({
      at: p.now().toISOString(),
      actor,
      action,
      outcome: 'done',
      subject: grant.subject,
      role: grant.role,
      scope: scopePlain(grant.scope),
      ...(grant.scope.kind === 'pools' && grant.scope.poolIds.length === 1 ? { poolId: grant.scope.poolIds[0] } : {}),
    });
  return {
    list: () => p.store.all(),
    async give(actor, wanted, audit) {
      const scope = await checkedScope(p.index, wanted.scope);
      if ('reason' in scope) return { kind: 'refused', ...scope };
      const grant: Grant = {
        id: `rg${randomBytes(8).toString('hex')}`,
        subject: wanted.subject,
        role: wanted.role,
        scope,
        givenBy: actor,
        givenAt: p.now().toISOString(),
      };
      const exists = (await p.store.all()).some((g) => sameGrant(g, grant));
      if (exists || !(await p.store.add(grant))) return { kind: 'refused', reason: 'duplicate', scope };
      p.changed?.();
      await record(audit, actor, 'role-given', grant);
      return { kind: 'given', grant };
    },
    async take(actor, grantId, audit) {
      const grant = await p.store.remove(grantId);
      if (!grant) return { kind: 'gone' };
      p.changed?.();
      await record(audit, actor, 'role-taken', grant);
      return { kind: 'taken', grant };
    },
  };
}
