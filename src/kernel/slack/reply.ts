/**
 * Talking back through the response_url (30 minutes, 5 uses; platform.md section 3): the first message
 * of a command is a new ephemeral one, every later one replaces it. respond() throws RespondError on
 * a non-2xx answer (an expired or used-up URL): logged, never thrown into Bolt, which would 500.
 */
import type { RespondFn, webApi } from '@slack/bolt';
import { buildErrorMessage, withSandboxMarker, withSandboxMarkerCharts } from '../blocks/common.js';
import type { ChartMessage, SlackMessage } from '../blocks/kit.js';
import type { AppDeps } from './deps.js';
import { openDm } from './notices.js';

export interface Replier {
  /** Sends `message` (with the sandbox marker when in sandbox mode). Never throws. */
  send(message: SlackMessage): Promise<void>;
  /** As send, for a message that may carry charts; false when Slack refused it (e.g. invalid_blocks). */
  sendCharts(message: ChartMessage): Promise<boolean>;
}

/** `firstIsNew`: a slash command's first reply is a new message; a button click replaces the clicked one. */
export function createReplier(respond: RespondFn, deps: AppDeps, firstIsNew: boolean): Replier {
  let replace = !firstIsNew;
  return {
    async sendCharts(message) {
      const args = {
        response_type: 'ephemeral' as const,
        replace_original: replace,
        ...withSandboxMarkerCharts(message, deps.sandbox),
      };
      replace = true;
      try {
        // Bolt's respond() is typed for the blocks @slack/types knows; a chart block is one it does not.
        await respond(args as unknown as Parameters<RespondFn>[0]);
        return true;
      } catch (error) {
        deps.logger.warn('respond with charts refused', { error: String(error) });
        return false;
      }
    },
    async send(message) {
      const body = withSandboxMarker(message, deps.sandbox);
      const args = { response_type: 'ephemeral' as const, replace_original: replace, ...body };
      replace = true;
      try {
        await respond(args);
      } catch (error) {
        deps.logger.error('respond failed', { error: String(error) });
      }
    },
  };
}

/**
 * The DM an export's file goes to (the license export, the history export); undefined when Slack
 * would not open one, after logging `what` and telling the person through `reply` that nothing was exported.
 */
export async function openExportDm(
  deps: AppDeps,
  client: webApi.WebClient,
  userId: string,
  reply: Pick<Replier, 'send'>,
  what: string,
): Promise<string | undefined> {
  try {
    return await openDm(client, userId);
  } catch (error) {
    deps.logger.warn(`${what}: no DM`, { error: String(error) });
    await reply.send(
      buildErrorMessage(
        'License Desk could not open a direct message with you, so nothing was exported. It needs the im:write scope (reinstall the app from manifest.yml); please try again later.',
      ),
    );
    return undefined;
  }
}
