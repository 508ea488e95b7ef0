/** `/licenses …`: ack at once, check the role, show "working on it", then replace it with the answer. */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { buildNoticeMessage, buildRefusalMessage, buildWorkingMessage } from '../../blocks/common.js';
import { buildHelpView } from '../../blocks/help.js';
import { openBulkModal } from '../bulk/open.js';
import type { AppDeps } from '../deps.js';
import { parseCommand } from '../parse.js';
import { requestSubcommand, runRequestCommand, runRequestsCommand } from '../requests/command.js';
import { answer, workingText } from './answer.js';
import { runChangeCommand } from './change.js';
import { runExport } from './export.js';
import { createReplier, roleOrReply } from './reply.js';

export function createLicensesCommandHandler(deps: AppDeps) {
  return async ({ ack, command, respond, client }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    // Slack gives 3 s; the licensing queue may hold a request far longer (design.md section 2).
    await ack();
    // Let the event loop take the other requests that are waiting for their 3-second ack before this
    // one does its follow-up work (role check, "working on it", the licensing call): under a burst,
    // acks no longer queue behind earlier commands' replies.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const reply = createReplier(respond, deps, true);
    // Course requests are open to every member who may request, so they come before the role check.
    const asked = requestSubcommand(command.text ?? '');
    if (asked) {
      const run = asked.sub === 'request' ? runRequestCommand : runRequestsCommand;
      return run(asked.words, { deps, client, command, reply });
    }
    const role = await roleOrReply(deps, client, command.user_id, reply);
    if (role === undefined) return;
    if (role === 'none') return reply.send(buildRefusalMessage(deps.roles.whoToAsk()));
    const parsed = parseCommand(command.text ?? '');
    if (parsed.kind === 'help') return reply.send(buildHelpView(role, parsed.reason));
    if (parsed.kind === 'bulk') {
      const problem = await openBulkModal(deps, client, command.trigger_id, command.user_id);
      return problem ? reply.send(buildNoticeMessage(problem.sentence)) : undefined;
    }
    if (parsed.kind === 'export') return runExport(deps, client, command.user_id, parsed.poolId, reply, role);
    if (parsed.kind === 'assign' || parsed.kind === 'extend' || parsed.kind === 'revoke') {
      return runChangeCommand(parsed, { deps, client, role, reply, command });
    }
    await reply.send(buildWorkingMessage(workingText(parsed)));
    await reply.send(await answer(parsed, { deps, role, client }));
  };
}
