/** `/licenses roles`: who holds what, with "Give a role" and "Take away" (owners only; docs/roles-and-approvals.md). */
import { buildErrorMessage, buildLockedMessage, buildNoticeMessage } from '../../kernel/blocks/common.js';
import type { Subcommand } from '../../kernel/slack/command-types.js';
import { extra } from '../../kernel/slack/command-words.js';
import { soleDeciderWarning } from '../../two-person/index.js';
import { buildRolesMessage, ROLES_UNREADABLE } from '../blocks/roles.js';
import { ownerCheck } from './owner.js';
import { rolesAdminOf } from './start.js';

export const roles: Subcommand<Record<string, never>> = {
  name: 'roles',
  usage: 'roles',
  summary: 'who holds which role on which pools; give and take roles (owners only)',
  need: 'admin',
  parse: (words) => (words.length > 0 ? extra('roles', words) : {}),
  async run(_args, ctx) {
    const owner = await ownerCheck(ctx.deps, ctx.client, ctx.userId, ctx.state.audit, {
      action: 'command',
      command: 'roles',
    });
    if (!owner.ok)
      return ctx.reply.send(
        owner.busy || !rolesAdminOf(ctx.deps.roles)
          ? buildNoticeMessage(owner.sentence)
          : buildLockedMessage(owner.sentence),
      );
    try {
      const grants = await owner.admin.service.list();
      const pools = await owner.admin.index.pools().catch(() => []);
      const warning = await soleDeciderWarning(
        ctx.deps,
        ctx.client,
        pools.map((p) => p.id),
      ).catch(() => undefined);
      await ctx.reply.send(buildRolesMessage(grants, owner.admin.owners(), 0, undefined, warning));
    } catch (error) {
      ctx.deps.logger.warn('roles: the listing could not be read', { error: String(error) });
      await ctx.reply.send(buildErrorMessage(ROLES_UNREADABLE));
    }
  },
};
