/**
 * Requests no listener acknowledges: a button, menu, modal or shortcut License Desk has no listener
 * for (an old message's button after an upgrade, a URL button, a modal of another version). Bolt
 * leaves them unanswered, so Slack shows an error after 3 s and Bolt logs an error-level "not
 * acknowledged within 3 seconds". Here every request the listeners leave unacknowledged is
 * acknowledged quietly as soon as they are done, with one warning per kind and id.
 *
 * The wrapper sits around App.processEvent (the one entry every receiver calls, HTTP and Socket
 * Mode), so it knows whether *anyone* acknowledged, whatever listeners other files register.
 */
import type { App, ReceiverEvent } from '@slack/bolt';
import type { Logger } from '../licensing/types.js';

/** Distinct ids warned about; past this, further ids are acknowledged without a line each. */
const MAX_REMEMBERED = 200;

export function acknowledgeUnhandled(app: App, logger: Logger): void {
  const processEvent = app.processEvent.bind(app);
  const warned = new Set<string>();
  app.processEvent = async (event: ReceiverEvent) => {
    let acked = false;
    const ack = event.ack;
    await processEvent({
      ...event,
      ack: (response?: unknown) => {
        acked = true;
        return ack(response);
      },
    });
    if (acked) return;
    const what = describe(event.body);
    const key = `${what.kind} ${what.id}`;
    if (!warned.has(key) && warned.size < MAX_REMEMBERED) {
      warned.add(key);
      logger.warn('no listener for this request; acknowledged it quietly', {
        ...what,
        ...(warned.size === MAX_REMEMBERED ? { note: 'further unknown ids are acknowledged without a log line' } : {}),
      });
    }
    try {
      await ack();
    } catch (error) {
      // Only if the answer already went out another way (e.g. Bolt's own 3-second timer).
      logger.debug('could not acknowledge quietly', { error });
    }
  };
}

function describe(body: Record<string, unknown>): { kind: string; id: string } {
  const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, 255) : '(none)');
  const type = str(body.type);
  if (typeof body.command === 'string') return { kind: 'command', id: str(body.command) };
  if (Array.isArray(body.actions)) {
    const action = body.actions[0] as { action_id?: unknown } | undefined;
    return { kind: 'action', id: str(action?.action_id) };
  }
  if (type === 'view_submission' || type === 'view_closed') {
    return { kind: type, id: str((body.view as { callback_id?: unknown } | undefined)?.callback_id) };
  }
  if (type === 'shortcut' || type === 'message_action') return { kind: type, id: str(body.callback_id) };
  if (type === 'block_suggestion') return { kind: 'options', id: str(body.action_id) };
  return { kind: type, id: '(none)' };
}
