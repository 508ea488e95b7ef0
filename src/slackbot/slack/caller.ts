/**
 * Who calls a Slackbot tool, checked on every call exactly as a click is (kernel/slack/gate.ts): the
 * role asked fresh through the gate's `authorize`, the pools it covers through `scopeOf`, a member
 * check for a learner asking about themselves. Never read from the call's arguments: the caller is
 * the Slack user of the verified request (`_meta.slack.user_id`).
 */
import type { webApi } from '@slack/bolt';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { inScope, type Scope } from '../../kernel/domain/scope.js';
import { authorize, authorizeMember, authorizeRequester, type Granted, scopeOf } from '../../kernel/slack/gate.js';
import { slackBusyText } from '../../kernel/slack/present.js';
import { SlackBusyError } from '../../kernel/slack/roles.js';
import type { Surface } from '../../kernel/slack/state.js';
import { VIA_SLACKBOT } from '../services/changes.js';

export type Checked = { ok: true; role: Granted; scope: Scope } | { ok: false; text: string };

export interface CallerGate {
  /** A viewer or an admin, with the pools the role covers. */
  viewer(userId: string): Promise<Checked>;
  /** A license admin, with the pools the role covers; a refusal of `action` is audited as a click's is. */
  admin(
    userId: string,
    action: AuditEntry['action'],
    target?: { poolId?: string; licenseId?: string },
  ): Promise<Checked>;
  /** A full member of the workspace (a learner's own licenses). */
  member(userId: string): Promise<{ ok: true } | { ok: false; text: string }>;
  /** Someone who may request a course. */
  requester(userId: string): Promise<{ ok: true } | { ok: false; text: string }>;
  /** The refusal for a pool outside the role's scope. */
  outOfScope(poolId: string): string;
}

export function createCallerGate(s: Surface, client: webApi.WebClient): CallerGate {
  const withScope = async (userId: string, need: 'viewer' | 'admin'): Promise<Checked> => {
    const verdict = await authorize(s.deps, client, userId, need, { noRoleMeansNoAccess: need === 'viewer' });
    if (!verdict.allowed) return { ok: false, text: verdict.text };
    try {
      return { ok: true, role: verdict.role, scope: await scopeOf(s.deps, client, userId) };
    } catch (error) {
      if (error instanceof SlackBusyError) return { ok: false, text: slackBusyText(error.retryAfterSec) };
      throw error;
    }
  };
  return {
    viewer: (userId) => withScope(userId, 'viewer'),
    async admin(userId, action, target = {}) {
      const checked = await withScope(userId, 'admin');
      if (!checked.ok) {
        await s.state.audit.record({
          at: s.deps.now().toISOString(),
          actor: userId,
          action,
          outcome: 'refused',
          ...target,
          detail: `not a license admin; ${VIA_SLACKBOT}`,
        });
        return checked;
      }
      if (target.poolId && !inScope(checked.scope, target.poolId))
        return { ok: false, text: outOfScope(target.poolId) };
      return checked;
    },
    async member(userId) {
      const verdict = await authorizeMember(s.deps, client, userId);
      return verdict.allowed ? { ok: true } : { ok: false, text: verdict.text };
    },
    async requester(userId) {
      const verdict = await authorizeRequester(s.deps, client, userId);
      return verdict.allowed ? { ok: true } : { ok: false, text: verdict.text };
    },
    outOfScope,
  };
}

const outOfScope = (poolId: string) =>
  `Pool ${poolId} is not among the pools your License Desk role covers, so I can't show or change it.`;

/** Is `poolId` within the checked caller's scope? */
export const covers = (checked: Extract<Checked, { ok: true }>, poolId: string): boolean =>
  inScope(checked.scope, poolId);
