/**
 * The Workflow Builder step "Request a course license" (callback id request_course_license,
 * manifest.yml): inputs requester (user id), pool_id, reason and workflow_name. It creates a request
 * exactly as the slash command does; the step completes later, when the request is decided
 * (notify.ts), with the outputs status, license_id and end_date. Bad input completes it at once with
 * a readable error. Bolt acknowledges the event before this runs, so every failure must end in fail()
 * here. Idempotent by the function execution id: Slack delivers the event again when it did not see
 * the answer in time, and a repeat neither makes a second request nor ends the running step.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs, webApi } from '@slack/bolt';
import { isId } from '../../kernel/domain/ids.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { authorizeRequester } from '../../kernel/slack/gate.js';
import { presentError } from '../../kernel/slack/present.js';
import { resolveUserEmail } from '../../kernel/slack/resolve-user.js';
import { createRefusalText } from '../blocks/request-outcome.js';
import { reasonProblem } from '../domain/requests.js';
import { nowhereToGo } from './form.js';

/** What Bolt passes a function listener (its own name for it is not exported by @slack/bolt's index). */
type Args = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;

const plainText = (mrkdwn: string) =>
  mrkdwn
    .replace(/`/g, '')
    .replace(/<@([A-Z0-9]+)>/g, '@$1')
    .replace(/<!subteam\^([A-Z0-9]+)>/g, '@$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** `botClient`: the app's own client (bot token), which reads the requester's e-mail. */
export function createRequestStepHandler(deps: AppDeps, botClient: () => webApi.WebClient) {
  // The executions this process has taken in (the store knows those that made a request, across
  // restarts and replicas; this also covers those that ended in an error). Bounded: the oldest go.
  const seen = new Set<string>();
  const firstTime = (executionId: string): boolean => {
    if (seen.has(executionId)) return false;
    seen.add(executionId);
    if (seen.size > 1000) seen.delete(seen.values().next().value ?? executionId);
    return true;
  };
  return async ({ inputs, fail, context, event }: Args): Promise<void> => {
    const executionId = context.functionExecutionId;
    if (!executionId) {
      // The receiver refuses such an event before Bolt (inbound-body.ts); Socket Mode has no such guard.
      deps.logger.warn('course request step: an event without a function execution id; ignored');
      return;
    }
    if (!firstTime(executionId)) {
      deps.logger.info('course request step delivered again; already taken in', { execution: executionId });
      return;
    }
    const error = (text: string) => fail({ error: plainText(text) });
    try {
      const service = deps.requests?.service;
      if (!service) return void (await error('Course requests are not set up in this License Desk.'));
      const requester = typeof inputs.requester === 'string' ? inputs.requester : '';
      const poolId = typeof inputs.pool_id === 'string' ? inputs.pool_id.trim().replace(/^#/, '') : '';
      const reason = typeof inputs.reason === 'string' ? inputs.reason.trim() : '';
      const workflowName = typeof inputs.workflow_name === 'string' ? inputs.workflow_name.trim().slice(0, 200) : '';
      const workflowRun = typeof event.workflow_execution_id === 'string' ? event.workflow_execution_id : '';
      if (!/^[UW][A-Z0-9]{2,20}$/.test(requester))
        return void (await error('The requester must be a Slack user (a user id such as U0123ABCD).'));
      if (!isId(poolId))
        return void (await error(
          `The pool id “${String(inputs.pool_id ?? '').slice(0, 40)}” is not a pool id; copy it from /licenses pools.`,
        ));
      const tooLong = reasonProblem(reason);
      if (tooLong) return void (await error(tooLong));
      const client = botClient();
      const verdict = await authorizeRequester(deps, client, requester);
      const refusal = verdict.allowed ? nowhereToGo(deps) : verdict.text;
      if (refusal) return void (await error(refusal));
      const email = await resolveUserEmail(client, requester);
      if ('problem' in email) return void (await error(`The requester's e-mail is unknown: ${email.problem}`));
      const result = await service.create({
        requester,
        requesterEmail: email.email,
        ...(email.name ? { requesterName: email.name } : {}),
        poolId,
        ...(reason ? { reason } : {}),
        source: 'workflow',
        workflow: {
          executionId,
          ...(workflowRun ? { workflowRun } : {}),
          ...(workflowName ? { workflowName } : {}),
        },
      });
      if (!result.ok) await error(createRefusalText(result.refusal));
      else if (result.repeat) deps.logger.info('course request step delivered again', { request: result.request.id });
    } catch (caught) {
      deps.logger.warn('course request step failed', { error: String(caught) });
      await fail({ error: plainText(presentError(caught, 'pool')) }).catch(() => undefined);
    }
  };
}
