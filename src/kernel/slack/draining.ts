/**
 * The global middleware that takes part in a clean stop (docs/shutdown.md). While License Desk runs,
 * it counts each request as work in flight until every listener is done with it, so a stop can wait
 * for it. Once the stop began, no listener runs: the person is told "License Desk is restarting; try
 * again in a minute" where they look (the command's reply, an ephemeral message under the clicked
 * message, an error next to the form's first field so nothing typed is lost, or a small modal), and
 * App Home keeps its last view.
 */
import type { AnyMiddlewareArgs, Middleware, webApi } from '@slack/bolt';
import { buildNoticeMessage, withSandboxMarker, withSandboxMarkerView } from '../blocks/common.js';
import { buildOutcomeModal } from '../blocks/outcome.js';
import type { WorkTracker } from '../services/work-tracker.js';
import type { AppDeps } from './deps.js';
import { RESTARTING } from './present.js';

type Loose = Record<string, unknown>;
const field = (o: unknown, key: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Loose)[key] : undefined;
const text = (o: unknown, key: string): string | undefined => {
  const v = field(o, key);
  return typeof v === 'string' && v !== '' ? v : undefined;
};

/** What a request is, for the log: `command /licenses`, `view_submission <callback_id>`, … */
export function requestLabel(body: unknown): string {
  const command = text(body, 'command');
  if (command) return `command ${command}`;
  const type = text(body, 'type') ?? 'unknown';
  const first = (field(body, 'actions') as unknown[] | undefined)?.[0];
  const detail =
    type === 'event_callback'
      ? text(field(body, 'event'), 'type')
      : type === 'block_actions'
        ? text(first, 'action_id')
        : (text(field(body, 'view'), 'callback_id') ?? text(body, 'callback_id'));
  return detail ? `${type} ${detail}` : type;
}

export function createDrainingMiddleware(deps: AppDeps, work: WorkTracker): Middleware<AnyMiddlewareArgs> {
  return async (args) => {
    const label = requestLabel(args.body);
    if (!work.draining) {
      await work.run('request', label, () => args.next());
      return;
    }
    deps.logger.info('turned away: License Desk is stopping', { request: label });
    // Counted too, so that the stop does not exit before the sentence is out.
    await work.run('request', `turned away: ${label}`, async () => {
      try {
        await turnAway(deps, args);
      } catch (error) {
        deps.logger.warn('could not tell the person that License Desk is restarting', { error: String(error) });
      }
    });
  };
}

async function turnAway(deps: AppDeps, args: AnyMiddlewareArgs & { client: webApi.WebClient }): Promise<void> {
  const { body, client } = args;
  const ack =
    'ack' in args && typeof args.ack === 'function' ? (args.ack as (r?: unknown) => Promise<void>) : undefined;
  const type = text(body, 'type');
  const notice = withSandboxMarkerView(
    buildOutcomeModal({ title: 'License Desk', tone: 'info', headline: RESTARTING }),
    deps.sandbox,
  );
  const triggerId = text(body, 'trigger_id');

  if (text(body, 'command')) {
    const message = withSandboxMarker(buildNoticeMessage(RESTARTING), deps.sandbox);
    await ack?.({ response_type: 'ephemeral', ...message });
    return;
  }
  if (type === 'view_submission') {
    // An error next to the first field keeps the form as typed; a view without inputs (a confirmation)
    // gets the sentence pushed on top of it, so closing that returns to it unchanged.
    const blocks = field(field(body, 'view'), 'blocks');
    const input = Array.isArray(blocks) ? blocks.find((b) => text(b, 'type') === 'input') : undefined;
    const blockId = text(input, 'block_id');
    await ack?.(
      blockId
        ? { response_action: 'errors', errors: { [blockId]: RESTARTING } }
        : { response_action: 'push', view: notice },
    );
    return;
  }
  await ack?.();
  if (type === 'block_actions') {
    const responseUrl = text(body, 'response_url');
    if (responseUrl && 'respond' in args && typeof args.respond === 'function') {
      const message = withSandboxMarker(buildNoticeMessage(RESTARTING), deps.sandbox);
      await args.respond({ response_type: 'ephemeral', replace_original: false, ...message });
      return;
    }
    const inModal = text(field(body, 'view'), 'type') === 'modal';
    // A Home tab click keeps the Home view and gets a small modal; a click inside a modal, one on top.
    if (triggerId && inModal) await client.views.push({ trigger_id: triggerId, view: notice });
    else if (triggerId) await client.views.open({ trigger_id: triggerId, view: notice });
    return;
  }
  if ((type === 'shortcut' || type === 'message_action') && triggerId) {
    await client.views.open({ trigger_id: triggerId, view: notice });
  }
  // Events (App Home opened) and closed views: nothing to say; App Home keeps its last view.
}
