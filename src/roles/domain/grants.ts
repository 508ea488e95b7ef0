/**
 * Roles kept in the database (docs/roles-and-approvals.md): what an owner gives a person or a user group
 * (admin or viewer) and on which pools (every pool, the pools of one course, chosen pools), and how a
 * person's grants make one role and one scope. Pure.
 */
import { EVERY_POOL, poolsScope, type Scope } from '../../kernel/domain/scope.js';

export type GrantRole = 'admin' | 'viewer';

export type GrantScope =
  | { kind: 'all' }
  | { kind: 'course'; courseId: string; courseTitle?: string }
  | { kind: 'pools'; poolIds: readonly string[] };

export interface Grant {
  id: string;
  /** A Slack user (U…, W…) or user group (S…). */
  subject: string;
  role: GrantRole;
  scope: GrantScope;
  givenBy: string;
  givenAt: string;
}

/** What an owner asks for in the form, before it is checked. */
export type NewGrant = Pick<Grant, 'subject' | 'role' | 'scope'>;

export const USER_ID = /^[UW][A-Z0-9]{2,20}$/;
export const GROUP_ID = /^S[A-Z0-9]{2,20}$/;
export const POOL_ID = /^[A-Za-z0-9_-]{1,64}$/;

export const isGroupId = (id: string): boolean => GROUP_ID.test(id);

/** The scope's pool ids as stored: sorted, each once. */
export function canonicalPools(poolIds: Iterable<string>): string[] {
  return [...new Set(poolIds)].sort();
}

/** The same role on the same scope (pools in any order): what a second give would repeat. */
export function sameGrant(a: NewGrant, b: NewGrant): boolean {
  if (a.subject !== b.subject || a.role !== b.role || a.scope.kind !== b.scope.kind) return false;
  return scopeKey(a.scope) === scopeKey(b.scope);
}

/** The scope's ids as one string: '' for every pool, the course id, or the sorted pool ids. */
export function scopeKey(scope: GrantScope): string {
  if (scope.kind === 'all') return '';
  if (scope.kind === 'course') return scope.courseId;
  return canonicalPools(scope.poolIds).join(',');
}

/** The role's words: "admin" (a pool admin when its scope is narrower than every pool) or "viewer". */
export function roleWords(role: GrantRole): string {
  return role === 'admin' ? 'admin' : 'viewer';
}

/** The scope in words, mrkdwn: "every pool", "the pools of *Mastering DAX*", "pools `2001`, `2003`". */
export function scopeWords(scope: GrantScope, esc: (text: string) => string = (t) => t): string {
  if (scope.kind === 'all') return 'every pool';
  if (scope.kind === 'course')
    return scope.courseTitle ? `the pools of *${esc(scope.courseTitle)}*` : `the pools of course \`${scope.courseId}\``;
  const ids = canonicalPools(scope.poolIds);
  return `${ids.length === 1 ? 'pool' : 'pools'} ${ids.map((id) => `\`${id}\``).join(', ')}`;
}

/** The scope in plain words, for the audit trail (whose sentence escapes it): "pools 2001, 2003". */
export function scopePlain(scope: GrantScope): string {
  if (scope.kind === 'all') return 'every pool';
  if (scope.kind === 'course') return `the pools of ${scope.courseTitle ?? `course ${scope.courseId}`}`;
  const ids = canonicalPools(scope.poolIds);
  return `${ids.length === 1 ? 'pool' : 'pools'} ${ids.join(', ')}`;
}

/** Does this grant cover `poolId`, whose course is `courseId` (undefined when the pool is unknown)? */
export function covers(scope: GrantScope, poolId: string, courseId: string | undefined): boolean {
  if (scope.kind === 'all') return true;
  if (scope.kind === 'course') return courseId !== undefined && scope.courseId === courseId;
  return scope.poolIds.includes(poolId);
}

/**
 * One person's role and scope from their grants (their own and their groups'): an admin grant makes
 * them an admin on the union of their admin grants only (a viewer grant elsewhere does not widen what
 * they may change); otherwise a viewer on the union of their viewer grants; none without grants.
 * `poolsOfCourse`: the pools of a course now (none when unknown).
 */
export function roleFromGrants(
  grants: readonly Grant[],
  poolsOfCourse: (courseId: string) => readonly string[],
): { role: GrantRole | 'none'; scope: Scope } {
  const admin = grants.filter((g) => g.role === 'admin');
  const chosen = admin.length > 0 ? admin : grants;
  if (chosen.length === 0) return { role: 'none', scope: poolsScope([]) };
  return { role: admin.length > 0 ? 'admin' : 'viewer', scope: unionScope(chosen, poolsOfCourse) };
}

function unionScope(grants: readonly Grant[], poolsOfCourse: (courseId: string) => readonly string[]): Scope {
  if (grants.some((g) => g.scope.kind === 'all')) return EVERY_POOL;
  const ids = new Set<string>();
  for (const { scope } of grants) {
    if (scope.kind === 'pools') for (const id of scope.poolIds) ids.add(id);
    else if (scope.kind === 'course') for (const id of poolsOfCourse(scope.courseId)) ids.add(id);
  }
  return poolsScope(ids);
}

/** "<@U…>" or "<!subteam^S…>": how Slack shows a grant's person or group. */
export function subjectMention(subject: string): string {
  if (GROUP_ID.test(subject)) return `<!subteam^${subject}>`;
  return USER_ID.test(subject) ? `<@${subject}>` : 'someone';
}

/** "a, b or c" of at most five mentions. */
export function mentionList(mentions: readonly string[]): string {
  const shown = mentions.slice(0, 5);
  if (shown.length <= 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} or ${shown.at(-1)}`;
}
