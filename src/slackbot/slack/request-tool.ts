/**
 * `request_course` (docs/slackbot.md): a member asks for a seat in a course, as `/licenses request`
 * does, in two steps like every change: the preview names the course and pool and the e-mail the
 * license would go to; the confirm creates the request through the requests' own use case, whose
 * cards and DMs go out as after the form.
 */
import * as z from 'zod';
import { SlackbotTool } from '../../kernel/blocks/ids.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { createRefusalText, MAX_REASON, nowhereToGo } from '../../requests/index.js';
import { ASKING, changeOutput, twoSteps } from './change-tools.js';
import { BLOCK_KIT_META, guarded, poolIdArg, type Registrar, refusal, tokenArg } from './tool-kit.js';

type RequestArgs = { poolId: string; reason?: string | undefined; confirmToken?: string | undefined };

export const registerRequestTool: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.requestCourse,
    {
      title: 'Request a course',
      description:
        "Any member (as /licenses request): ask the license admins for a seat in a course's pool, for yourself. The first call only previews and returns a confirmToken; call again with the same arguments and that confirmToken to send the request.",
      inputSchema: {
        poolId: poolIdArg.describe('The course pool, as list_pools shows it'),
        reason: z.string().max(MAX_REASON).optional().describe('Why you need it'),
        confirmToken: tokenArg,
      },
      outputSchema: changeOutput,
      annotations: ASKING,
      _meta: BLOCK_KIT_META,
    },
    guarded(ctx, SlackbotTool.requestCourse, async ({ poolId, reason, confirmToken }: RequestArgs, userId) => {
      const { deps } = ctx.s;
      const service = deps.requests?.service;
      if (!service)
        return refusal(`Course requests are not set up here. Please ask ${deps.roles.whoToAsk()} for a license.`);
      const email = async () => {
        const found = await resolveUserEmail(ctx.client, userId);
        return 'problem' in found ? undefined : found;
      };
      return twoSteps(ctx, {
        tool: SlackbotTool.requestCourse,
        userId,
        who: async () => {
          const may = await ctx.gate.requester(userId);
          if (!may.ok) return may;
          const nowhere = nowhereToGo(deps);
          return nowhere ? { ok: false, text: nowhere } : { ok: true };
        },
        args: { poolId, ...(reason ? { reason } : {}) },
        token: confirmToken,
        preview: async () => {
          const pool = await deps.licensing.pools.get(poolId, INTERACTIVE).catch(() => undefined);
          if (!pool) return { refused: `There is no pool ${poolId}.` };
          const mine = await email();
          if (!mine) return { refused: 'I need your Slack e-mail to send the license to, and could not read it.' };
          return {
            what: `Ask the license admins for a seat of ${pool.course.title} (pool ${pool.id}) for you, ${mine.email}${reason ? `, because: ${reason}` : ''}.`,
            poolId: pool.id,
          };
        },
        commit: async () => {
          const mine = await email();
          if (!mine) return { text: 'I could not read your Slack e-mail; nothing was sent.', status: 'failed' };
          const result = await service.create({
            requester: userId,
            requesterEmail: mine.email,
            ...(mine.name ? { requesterName: mine.name } : {}),
            poolId,
            ...(reason ? { reason } : {}),
            source: 'slackbot',
          });
          if (!result.ok) return { text: createRefusalText(result.refusal), status: 'refused' };
          return {
            text: `Your request for ${result.request.courseTitle} was sent to the license admins; you will be told by DM when it is decided.`,
            status: 'done',
          };
        },
      });
    }),
  );
};
