/**
 * A viewer typing assign, extend or revoke: the gate refused them (the listener sent the admins-only
 * sentence); the attempt goes into the audit trail, as every refused change does.
 */
import type { ChangeCommand } from './change-command.js';
import type { RefusalContext } from './types.js';

export async function auditRefusedChange(cmd: ChangeCommand, ctx: RefusalContext): Promise<void> {
  await ctx.audit.record({
    at: ctx.deps.now().toISOString(),
    actor: ctx.userId,
    action: cmd.kind,
    outcome: 'refused',
    ...(cmd.kind === 'assign' ? (cmd.poolId ? { poolId: cmd.poolId } : {}) : { licenseId: cmd.licenseId }),
    detail: 'not a license admin (command)',
  });
}
