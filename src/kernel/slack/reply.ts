/**
 * Talking back through the response_url (30 minutes, 5 uses; platform.md section 3): the first message
 * of a command is a new ephemeral one, every later one replaces it. respond() throws RespondError on
 * a non-2xx answer (an expired or used-up URL): logged, never thrown into Bolt, which would 500.
 */
import type { RespondFn } from '@slack/bolt';
import { withSandboxMarker, withSandboxMarkerCharts } from '../blocks/common.js';
import type { ChartMessage, SlackMessage } from '../blocks/kit.js';
import type { AppDeps } from './deps.js';

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
