/**
 * Owners only: every surface of `/licenses roles` asks here, fresh, after the gate let an admin through.
 * A pool admin (or a forged click) is told so and the attempt is audited as refused, like the gate's.
 */
import type { webApi } from '@slack/bolt';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import type { AuditLog } from '../../kernel/services/audit.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { slackBusyText } from '../../kernel/slack/present.js';
import { SlackBusyError } from '../../kernel/slack/roles.js';
import { OWNERS_ONLY, ROLES_OFF } from '../blocks/roles.js';
import { type RolesAdmin, rolesAdminOf } from './start.js';

export type OwnerCheck = { ok: true; admin: RolesAdmin } | { ok: false; sentence: string; busy?: boolean };

export async function ownerCheck(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  audit: AuditLog,
  attempt: Pick<AuditEntry, 'action'> & Partial<AuditEntry>,
): Promise<OwnerCheck> {
  const admin = rolesAdminOf(deps.roles);
  if (!admin) return { ok: false, sentence: ROLES_OFF };
  try {
    if (await admin.resolver.isOwner(client, userId)) return { ok: true, admin };
  } catch (error) {
    if (error instanceof SlackBusyError) return { ok: false, sentence: slackBusyText(error.retryAfterSec), busy: true };
    deps.logger.error('owner check failed', { userId, error: String(error) });
  }
  await audit.record({
    at: deps.now().toISOString(),
    actor: userId,
    outcome: 'refused',
    detail: 'not an owner',
    ...attempt,
  });
  return { ok: false, sentence: OWNERS_ONLY };
}
