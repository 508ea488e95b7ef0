/**
 * `/licenses …`: ack at once, look the subcommand up in the table (src/slack/subcommands/), ask the gate
 * once with what the entry needs, then run it. Bad words get help with one sentence; a refusal says why
 * (nobody without a role sees anything else, whatever they typed).
 */
import type { AllMiddlewareArgs, SlackCommandMiddlewareArgs } from '@slack/bolt';
import { auditRefusedCommand } from '../../changes/index.js';
import { buildErrorMessage, buildLockedMessage, buildNoticeMessage } from '../../kernel/blocks/common.js';
import { withScope } from '../../kernel/services/request-scope.js';
import { isProblem } from '../../kernel/slack/command-types.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import {
  authorize,
  authorizeMember,
  authorizeRequester,
  mayAskForCourse,
  nothingForYouText,
  roleNeedOf,
} from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import type { Surface } from '../../kernel/slack/state.js';
import { helpMessage, requesterHelpMessage, resolveCommand } from './index.js';

/**
 * Someone without a role who may still ask for a course (REQUESTERS) is told how, so that "no access"
 * is not the end of the road; nothing is added when requests are off or exclude them.
 */
async function requestHint(
  deps: AppDeps,
  client: Parameters<typeof mayAskForCourse>[1],
  userId: string,
  verdict: { reason: string },
): Promise<string> {
  if (verdict.reason !== 'no-access') return '';
  return (await mayAskForCourse(deps, client, userId))
    ? ' To ask for a seat in a course, use `/licenses request`.'
    : '';
}

export function createLicensesCommandHandler({ deps, state }: Surface) {
  return async ({ ack, command, respond, client }: SlackCommandMiddlewareArgs & AllMiddlewareArgs): Promise<void> => {
    // Slack gives 3 s; the licensing queue may hold a request far longer (design.md section 2).
    await ack();
    // Let the event loop take the other requests that are waiting for their 3-second ack before this
    // one does its follow-up work (role check, "working on it", the licensing call): under a burst,
    // acks no longer queue behind earlier commands' replies.
    await new Promise<void>((resolve) => setImmediate(resolve));
    const reply = createReplier(respond, deps, true);
    const resolved = resolveCommand(command.text ?? '');
    const need = isProblem(resolved) ? 'viewer' : resolved.entry.need;
    const context = { deps, state, client, userId: command.user_id, reply, command };
    if ((need === 'requester' || need === 'member') && !isProblem(resolved)) {
      // Asking for a course needs no role: anyone REQUESTERS lets in (a full member by default); one's
      // own licenses, any full member.
      const asker =
        need === 'member'
          ? await authorizeMember(deps, client, command.user_id)
          : await authorizeRequester(deps, client, command.user_id);
      if (!asker.allowed) return reply.send(buildNoticeMessage(asker.text));
      return resolved.run({ ...context, role: asker.role, canChange: asker.canDecide });
    }
    // Help (for bad words too) needs only a look-in; someone without a role hears "no access" whatever
    // they asked for, a change included.
    const verdict = await authorize(deps, client, command.user_id, roleNeedOf(need), {
      noRoleMeansNoAccess: true,
    });
    if (!verdict.allowed) {
      if (verdict.reason === 'slack-busy') return reply.send(buildErrorMessage(verdict.text));
      // Help (asked for, or the answer to bad words) from someone without a role: what they may do.
      if (verdict.reason === 'no-access' && (isProblem(resolved) || resolved.entry.name === 'help')) {
        if (await mayAskForCourse(deps, client, command.user_id)) {
          return reply.send(
            requesterHelpMessage(deps.roles.whoToAsk(), isProblem(resolved) ? resolved.problem : undefined),
          );
        }
        return reply.send(buildLockedMessage(nothingForYouText(deps)));
      }
      await reply.send(
        buildLockedMessage(`${verdict.text}${await requestHint(deps, client, command.user_id, verdict)}`),
      );
      // Recorded like a refused click: a change, or a read of student data (change-refusal.ts).
      if (!isProblem(resolved)) {
        const detail =
          verdict.reason === 'admins-only' ? 'not a license admin (command)' : 'no access to License Desk (command)';
        await auditRefusedCommand(resolved, { deps, userId: command.user_id, audit: state.audit, detail });
      }
      return;
    }
    if (isProblem(resolved)) return reply.send(helpMessage(verdict.canChange, resolved.problem));
    // Everything the subcommand reads or changes is narrowed to the person's pools (request-scope.ts).
    await withScope(verdict.scope, () =>
      resolved.run({ ...context, role: verdict.role, canChange: verdict.canChange, scope: verdict.scope }),
    );
  };
}
