/**
 * The Workflow Builder step "Request a course license" (callback id request_course_license,
 * manifest.yml): inputs requester (user id), pool_id, reason. It creates a request exactly as the
 * slash command does; the step completes later, when the request is decided (notify.ts), with the
 * outputs status, license_id and end_date. Bad input completes it at once with a readable error.
 * Bolt acknowledges the event before this runs, so every failure must end in fail() here.
 */
import type { AllMiddlewareArgs, SlackEventMiddlewareArgs, webApi } from '@slack/bolt';
import { isId } from '../../domain/ids.js';
import { MAX_REASON } from '../../domain/requests.js';
import type { AppDeps } from '../deps.js';
import { authorizeRequester } from '../gate.js';
import { presentError } from '../present.js';
import { resolveUserEmail } from '../resolve-user.js';
import { nowhereToGo } from './form.js';

/** What Bolt passes a function listener (its own name for it is not exported by @slack/bolt's index). */
type Args = SlackEventMiddlewareArgs<'function_executed'> & AllMiddlewareArgs;

const plainText = (mrkdwn: string) =>
  mrkdwn
    .replace(/`/g, '')
    .replace(/<@([A-Z0-9]+)>/g, '@$1')
    .replace(/<!subteam\^([A-Z0-9]+)>/g, '@$1');

/** `botClient`: the app's own client (bot token), which reads the requester's e-mail. */
export function createRequestStepHandler(deps: AppDeps, botClient: () => webApi.WebClient) {
  return async ({ inputs, fail, context }: Args): Promise<void> => {
    const error = (text: string) => fail({ error: plainText(text) });
    try {
      const service = deps.requests?.service;
      if (!service) return void (await error('Course requests are not set up in this License Desk.'));
      const requester = typeof inputs.requester === 'string' ? inputs.requester : '';
      const poolId = typeof inputs.pool_id === 'string' ? inputs.pool_id.trim().replace(/^#/, '') : '';
      const reason = typeof inputs.reason === 'string' ? inputs.reason.trim() : '';
      if (!/^[UW][A-Z0-9]{2,20}$/.test(requester))
        return void (await error('The requester must be a Slack user (a user id such as U0123ABCD).'));
      if (!isId(poolId))
        return void (await error(
          `The pool id “${String(inputs.pool_id ?? '').slice(0, 40)}” is not a pool id; copy it from /licenses pools.`,
        ));
      if (Array.from(reason).length > MAX_REASON)
        return void (await error(`The reason is longer than ${MAX_REASON} characters.`));
      const executionId = context.functionExecutionId;
      if (!executionId) return void (await error('Slack sent no function execution id.'));
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
        workflow: { executionId },
      });
      if (!result.ok) await error(result.text);
    } catch (caught) {
      deps.logger.warn('course request step failed', { error: String(caught) });
      await fail({ error: plainText(presentError(caught, 'pool')) }).catch(() => undefined);
    }
  };
}
