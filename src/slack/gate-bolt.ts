/**
 * The gate's Bolt side: one wrapper per surface kind (a click, a form submission, the shortcut, App
 * Home). Each asks `authorize` (gate.ts) once per request with the need its listener declares, and on
 * a refusal does what that surface does: a click is told in a new ephemeral message (or by DM when it
 * has no response_url) and the attempt is audited; a submission's modal shows the refusal and the
 * attempt is audited; the shortcut opens a small refusal modal; App Home shows the refusal view. When
 * Slack was too busy to tell the role, the person is asked to try again and nothing is audited.
 */
import type {
  AckFn,
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  GlobalShortcut,
  SlackActionMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewResponseAction,
  ViewSubmitAction,
} from '@slack/bolt';
import { buildErrorMessage, buildLockedMessage } from '../blocks/common.js';
import type { SlackMessage } from '../blocks/kit.js';
import { buildOutcomeModal } from '../blocks/outcome.js';
import type { AuditEntry } from '../services/audit.js';
import { authorize, type Need, type Verdict } from './gate.js';
import { createReplier } from './reply.js';
import { markedAck, openView, tellByDm } from './slack-io.js';
import type { Surface } from './state.js';

export type ClickArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
export type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;
export type ShortcutArgs = SlackShortcutMiddlewareArgs<GlobalShortcut> & AllMiddlewareArgs;
export type Granted = Extract<Verdict, { allowed: true }>;
type Refused = Extract<Verdict, { allowed: false }>;

/** A refused attempt worth recording: which change, on what (a well-formed id only), and how asked. */
export interface RefusalAudit {
  action: AuditEntry['action'];
  target?: { licenseId?: string; poolId?: string };
  /** Appended to "not a license admin", e.g. "(shortcut)". */
  via?: string;
}

/** That button no longer works (a forged or outdated value): said once, here. */
export const BUTTON_GONE = 'That button no longer works; please run /licenses again.';

async function auditRefusal(s: Surface, actor: string, verdict: Refused, audit: RefusalAudit | undefined) {
  if (!audit || verdict.reason === 'slack-busy') return;
  await s.state.audit.record({
    at: s.deps.now().toISOString(),
    actor,
    action: audit.action,
    outcome: 'refused',
    ...(audit.target ?? {}),
    detail: `not a license admin${audit.via ? ` ${audit.via}` : ''}`,
  });
}

/** The message a refused click is told: the gate's sentence, or try-again when Slack was busy. */
export function refusalMessage(verdict: Refused): SlackMessage {
  return verdict.reason === 'slack-busy' ? buildErrorMessage(verdict.text) : buildLockedMessage(verdict.text);
}

/** Tells the clicker in a new ephemeral message, or by DM when the click has no response_url (Home tab). */
export async function tellClicker(s: Surface, args: ClickArgs, message: SlackMessage): Promise<void> {
  if (args.body.response_url) return createReplier(args.respond, s.deps, true).send(message);
  await tellByDm(s.deps, args.client, args.body.user.id, message);
}

export interface ClickGate {
  need: Need;
  /** Which refused attempt to record, from the clicked button; none for a read. */
  audit?: (args: ClickArgs) => RefusalAudit;
  /** How a refusal is told; default: a new ephemeral message under the clicked one (tellClicker). */
  tell?: (args: ClickArgs, verdict: Refused) => Promise<void>;
}

/** A block_actions listener behind the gate: ack, authorize once, then the handler or the refusal. */
export function onClick(s: Surface, gate: ClickGate, handler: (args: ClickArgs, granted: Granted) => Promise<void>) {
  return async (args: ClickArgs): Promise<void> => {
    await args.ack();
    const actor = args.body.user.id;
    const verdict = await authorize(s.deps, args.client, actor, gate.need);
    if (verdict.allowed) return handler(args, verdict);
    await (gate.tell ? gate.tell(args, verdict) : tellClicker(s, args, refusalMessage(verdict)));
    await auditRefusal(s, actor, verdict, gate.audit?.(args));
  };
}

export type MarkedSubmitArgs = Omit<SubmitArgs, 'ack'> & { ack: AckFn<ViewResponseAction> };

export interface SubmitGate {
  need: Need;
  /** The modal's title for the refusal view. */
  title: string;
  audit?: RefusalAudit;
  /** A surface's own refusal sentence instead of the gate's (bulk assignment keeps its own). */
  text?: string;
  /** How the refusal replaces the modal; default an outcome view under `title`. */
  view?: (sentence: string, busy: boolean) => Parameters<AckFn<ViewResponseAction>>[0];
}

/** A view_submission listener behind the gate; its ack carries the sandbox marker (markedAck). */
export function onSubmit(
  s: Surface,
  gate: SubmitGate,
  handler: (args: MarkedSubmitArgs, granted: Granted) => Promise<void>,
) {
  return async (raw: SubmitArgs): Promise<void> => {
    const args: MarkedSubmitArgs = { ...raw, ack: markedAck(s.deps, raw.ack) };
    const actor = raw.body.user.id;
    const verdict = await authorize(s.deps, raw.client, actor, gate.need);
    if (verdict.allowed) return handler(args, verdict);
    const busy = verdict.reason === 'slack-busy';
    const sentence = busy || !gate.text ? verdict.text : gate.text;
    await args.ack(
      gate.view
        ? gate.view(sentence, busy)
        : {
            response_action: 'update',
            view: buildOutcomeModal({ title: gate.title, tone: busy ? 'failed' : 'refused', headline: sentence }),
          },
    );
    await auditRefusal(s, actor, verdict, gate.audit);
  };
}

/** A global shortcut behind the gate: a refusal is a small modal of its own (no channel, no response_url). */
export function onShortcut(
  s: Surface,
  gate: { need: Need; title: string; audit?: RefusalAudit },
  handler: (args: ShortcutArgs, granted: Granted) => Promise<void>,
) {
  return async (args: ShortcutArgs): Promise<void> => {
    await args.ack();
    const actor = args.shortcut.user.id;
    const verdict = await authorize(s.deps, args.client, actor, gate.need);
    if (verdict.allowed) return handler(args, verdict);
    const tone = verdict.reason === 'slack-busy' ? 'failed' : 'refused';
    await openView(
      s.deps,
      args.client,
      args.shortcut.trigger_id,
      buildOutcomeModal({ title: gate.title, tone, headline: verdict.text }),
    );
    await auditRefusal(s, actor, verdict, gate.audit);
  };
}
