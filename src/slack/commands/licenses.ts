/**
 * `/licenses …`: ack at once, look the subcommand up in the table (src/slack/subcommands/), ask the gate
 * once with what the entry needs, then run it. Bad words get help with one sentence; a refusal says why
 * (nobody without a role sees anything else, whatever they typed).
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { buildAdminOnlyMessage, buildErrorMessage, buildRefusalMessage } from '../../blocks/common.js';
import type { AppDeps } from '../deps.js';
import { authorize, permits } from '../gate.js';
import { helpMessage, resolveCommand } from '../subcommands/index.js';
import { isProblem } from '../subcommands/types.js';
import { changeState } from '../views/state.js';
import { createReplier } from './reply.js';

export function createLicensesCommandHandler(deps: AppDeps) {
  return async ({ ack, command, respond, client }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    // Slack gives 3 s; the licensing queue may hold a request far longer (design.md section 2).
    await ack();
    // Let the event loop take the other requests that are waiting for their 3-second ack before this
    // one does its follow-up work (role check, "working on it", the licensing call): under a burst,
    // acks no longer queue behind earlier commands' replies.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const reply = createReplier(respond, deps, true);
    const resolved = resolveCommand(command.text ?? '');
    // Help (for bad words too) needs only a look-in.
    const verdict = await authorize(
      deps,
      client,
      command.user_id,
      isProblem(resolved) ? 'viewer' : resolved.entry.need,
    );
    if (!verdict.allowed) {
      if (verdict.reason === 'slack-busy') return reply.send(buildErrorMessage(verdict.text));
      // Someone without a role hears "no access" whatever they asked for, a change included.
      if (verdict.reason === 'no-access' || !permits(verdict.role ?? 'none', 'viewer')) {
        return reply.send(buildRefusalMessage(deps.roles.whoToAsk()));
      }
      await reply.send(buildAdminOnlyMessage(deps.roles.whoToAsk()));
      if (!isProblem(resolved)) {
        await resolved.refused?.({ deps, userId: command.user_id, audit: changeState(deps).audit });
      }
      return;
    }
    if (isProblem(resolved)) return reply.send(helpMessage(verdict.canChange, resolved.problem));
    await resolved.run({
      deps,
      client,
      userId: command.user_id,
      role: verdict.role,
      canChange: verdict.canChange,
      reply,
      command,
    });
  };
}
