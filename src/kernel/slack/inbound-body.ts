/**
 * Parses a verified Slack request body exactly as Bolt's HTTPReceiver does (a form with a `payload`
 * field holding JSON, plain form fields for slash commands, JSON for the Events API) and checks that
 * the result has a shape Bolt can route without dereferencing null. Bolt reads `body.ssl_check` on
 * whatever JSON.parse returned, so a signed `payload=null` used to throw outside any handler and stop
 * the process; anything that is not a routable object is refused here with a sentence saying why.
 */
import { parse as parseQuery } from 'node:querystring';

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export type InboundBody = { ok: true; body: Record<string, unknown> } | { ok: false; problem: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a JSON array';
  if (typeof v === 'string') return 'a JSON string';
  return `a JSON ${typeof v}`;
}

function parseJson(text: string, what: string): { ok: true; value: unknown } | { ok: false; problem: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, problem: `${what} is not valid JSON` };
  }
}

/**
 * `contentType` is compared exactly, as Bolt compares it: Slack sends the bare form type, and anything
 * else is read as JSON.
 */
export function parseInboundBody(raw: string, contentType: string | undefined): InboundBody {
  let value: unknown;
  if (contentType === FORM_CONTENT_TYPE) {
    const fields = parseQuery(raw);
    const { payload } = fields;
    if (Array.isArray(payload)) return { ok: false, problem: 'the form field payload appears more than once' };
    if (typeof payload === 'string') {
      const parsed = parseJson(payload, 'the form field payload');
      if (!parsed.ok) return parsed;
      value = parsed.value;
    } else {
      value = fields;
    }
  } else {
    const parsed = parseJson(raw, `the body (Content-Type ${contentType ?? 'missing'})`);
    if (!parsed.ok) return parsed;
    value = parsed.value;
  }
  if (!isObject(value)) return { ok: false, problem: `the payload is ${kindOf(value)}, not a JSON object` };
  const problem = shapeProblem(value);
  return problem === undefined ? { ok: true, body: value } : { ok: false, problem };
}

/** In Bolt's routing order (helpers.ts getTypeAndConversation), the fields each kind is read by. */
function shapeProblem(body: Record<string, unknown>): string | undefined {
  const { type } = body;
  if (type === 'url_verification') return undefined;
  if (body.event !== undefined) return eventProblem(body);
  if (body.command !== undefined) return commandProblem(body);
  // Every interaction names who acted: Bolt reads `user.id` (and `user.team_id` when `team` is null)
  // before any listener runs, so an interaction without a user object would fail with a 500.
  const kind = interactionProblem(body);
  if (kind !== undefined) return kind;
  if (!isObject(body.user)) return 'an interaction without a user object';
  // Bolt reads `channel.id` whenever `channel` is present.
  return body.channel === undefined || isObject(body.channel) ? undefined : 'channel is not an object';
}

/** Slack sends every slash command with who ran it and where to answer; the answer goes there. */
function commandProblem(body: Record<string, unknown>): string | undefined {
  if (typeof body.command !== 'string') return 'command is not a string';
  if (typeof body.user_id !== 'string' || body.user_id === '') return 'a slash command without a user_id';
  if (typeof body.response_url !== 'string' || body.response_url === '')
    return 'a slash command without a response_url';
  return undefined;
}

function interactionProblem(body: Record<string, unknown>): string | undefined {
  const { type } = body;
  if (body.name !== undefined || type === 'block_suggestion') return undefined;
  if (body.actions !== undefined) {
    const { actions } = body;
    return Array.isArray(actions) && actions.length > 0 && actions.every(isObject)
      ? undefined
      : 'actions is not a non-empty list of objects';
  }
  if (type === 'dialog_submission') return undefined;
  if (type === 'shortcut' || type === 'message_action') {
    return typeof body.callback_id === 'string' ? undefined : `a ${type} without a callback_id`;
  }
  if (type === 'view_submission' || type === 'view_closed') {
    return isObject(body.view) ? undefined : `a ${type} without a view object`;
  }
  return typeof type === 'string'
    ? `type ${JSON.stringify(type.slice(0, 50))} is neither an event, a slash command nor an interaction Slack sends`
    : 'it has neither a command nor a type';
}

/** The fields of an event that Bolt dereferences before any listener runs (App.ts buildSource). */
function eventProblem(body: Record<string, unknown>): string | undefined {
  const { event, authorizations } = body;
  if (!isObject(event) || typeof event.type !== 'string') return 'event is not an object with a type';
  if ('user' in event && event.user === null) return 'event.user is null';
  if ('channel' in event && typeof event.channel !== 'string' && !isObject(event.channel)) {
    return 'event.channel is neither a channel id nor an object';
  }
  if ('subteam' in event && !isObject(event.subteam)) return 'event.subteam is not an object';
  if ('item' in event && !isObject(event.item)) return 'event.item is not an object';
  if (event.type === 'function_executed') {
    // Bolt reads event.function.callback_id to route it, and a step without its execution id could
    // never be completed.
    if (!isObject(event.function)) return 'a function_executed event without its function';
    if (typeof event.function_execution_id !== 'string' || event.function_execution_id === '') {
      return 'a function_executed event without a function_execution_id';
    }
  }
  if (Array.isArray(authorizations) && authorizations.length > 0 && !isObject(authorizations[0])) {
    return 'authorizations[0] is not an object';
  }
  return undefined;
}
