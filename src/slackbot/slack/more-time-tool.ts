/**
 * `ask_more_time` (docs/slackbot.md): a holder asks the approvers to move the end of their own license,
 * as App Home's "Ask for more time" does, in two steps like every change: the preview reads the license
 * fresh and checks it is theirs and may move; the confirm sends the ask through the extensions' own use
 * case, whose card and DMs go out as after the form.
 */
import * as z from 'zod';
import { askRefusalText } from '../../extensions/index.js';
import { SlackbotTool } from '../../kernel/blocks/ids.js';
import { dayText } from '../../kernel/domain/end-date.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { VIA_SLACKBOT } from '../services/changes.js';
import { ASKING, changeOutput, twoSteps } from './change-tools.js';
import { BLOCK_KIT_META, dayArg, guarded, licenseIdArg, type Registrar, refusal, tokenArg } from './tool-kit.js';

type MoreTimeArgs = { licenseId: string; endDate: string; reason: string; confirmToken?: string | undefined };

export const registerMoreTimeTool: Registrar = (server, ctx) => {
  server.registerTool(
    SlackbotTool.askMoreTime,
    {
      title: 'Ask for more time',
      description:
        'A license holder: ask the license admins to move the end of one of your own licenses (find_licenses lists them). The first call only previews and returns a confirmToken; call again with the same arguments and that confirmToken to send the ask.',
      inputSchema: {
        licenseId: licenseIdArg.describe('Your license'),
        endDate: dayArg.describe('The end you ask for (YYYY-MM-DD)'),
        reason: z.string().min(1).max(500).describe('Why you need more time'),
        confirmToken: tokenArg,
      },
      outputSchema: changeOutput,
      annotations: ASKING,
      _meta: BLOCK_KIT_META,
    },
    guarded(
      ctx,
      SlackbotTool.askMoreTime,
      async ({ licenseId, endDate, reason, confirmToken }: MoreTimeArgs, userId) => {
        const service = ctx.s.deps.extensions?.service;
        if (!service) return refusal('Asking for more time is not set up here; please ask a license admin.');
        const email = async () => {
          const found = await resolveUserEmail(ctx.client, userId);
          return 'problem' in found ? undefined : found.email;
        };
        return twoSteps(ctx, {
          tool: SlackbotTool.askMoreTime,
          userId,
          who: () => ctx.gate.requester(userId),
          args: { licenseId, endDate, reason },
          token: confirmToken,
          preview: async () => {
            const mine = await email();
            if (!mine) return { refused: 'I need your Slack e-mail to find your license, and could not read it.' };
            const held = await service.holding(licenseId, mine);
            if (!held.ok) return { refused: askRefusalText(held.refusal) };
            return {
              what: `Ask the license admins to move the end of your license ${licenseId} of ${held.pool.course.title} (pool ${held.pool.id}) from ${dayText(held.license.end)} to ${dayText(endDate)}, because: ${reason}.`,
              poolId: held.pool.id,
            };
          },
          commit: async () => {
            const mine = await email();
            if (!mine) return { text: 'I could not read your Slack e-mail; nothing was sent.', status: 'failed' };
            const outcome = await service.ask({
              requester: userId,
              requesterEmail: mine,
              licenseId,
              endDate,
              reason,
              via: VIA_SLACKBOT,
            });
            if (!outcome.ok) return { text: askRefusalText(outcome.refusal), status: 'refused' };
            return { text: 'Sent to the license admins. You hear the answer by DM.', status: 'done' };
          },
        });
      },
    ),
  );
};
