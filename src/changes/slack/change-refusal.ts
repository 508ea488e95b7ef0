/**
 * A typed command the gate refused goes into the audit trail, as a refused click does: assign,
 * extend or revoke typed by a viewer or someone without a role (with the pool or license they named),
 * and any other change or read of student data (a refused `command` naming the subcommand). Help and
 * the reads of pools, courses and the account are not recorded.
 */

import type { Bound, RefusalContext } from '../../kernel/slack/command-types.js';
import type { ChangeCommand } from './change-command.js';

/** Records the refused attempt of a typed command, when it is one worth recording. */
export async function auditRefusedCommand(bound: Bound, ctx: RefusalContext): Promise<void> {
  if (bound.refused) return bound.refused(ctx);
  const { entry } = bound;
  if (entry.need !== 'admin' && !entry.studentData) return;
  await ctx.audit.record({
    at: ctx.deps.now().toISOString(),
    actor: ctx.userId,
    action: 'command',
    outcome: 'refused',
    command: entry.name,
    detail: ctx.detail,
  });
}

export async function auditRefusedChange(cmd: ChangeCommand, ctx: RefusalContext): Promise<void> {
  await ctx.audit.record({
    at: ctx.deps.now().toISOString(),
    actor: ctx.userId,
    action: cmd.kind,
    outcome: 'refused',
    ...(cmd.kind === 'assign' ? (cmd.poolId ? { poolId: cmd.poolId } : {}) : { licenseId: cmd.licenseId }),
    detail: ctx.detail,
  });
}
