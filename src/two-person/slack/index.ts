/**
 * Registration only: the held mass changes' buttons (docs/roles-and-approvals.md). Approve and Reject
 * on the other admins' card, and the sole admin's "Send it anyway" / "Do not send" (a message, or the
 * bulk modal's submission), all behind the gate (admins); the use case refuses the rest in one sentence.
 */
import type { App, BlockAction, ButtonAction } from '@slack/bolt';
import { buildLockedMessage } from '../../kernel/blocks/common.js';
import { TwoPersonActionId, TwoPersonCallbackId } from '../../kernel/blocks/ids.js';
import { section } from '../../kernel/blocks/kit.js';
import { modal } from '../../kernel/blocks/modal-kit.js';
import { inScope } from '../../kernel/domain/scope.js';
import { BUTTON_GONE, type ClickArgs, onClick, onSubmit, scopeOf, tellClicker } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import type { Surface } from '../../kernel/slack/state.js';
import { decisionSentence, REFUSAL_SENTENCES } from '../blocks/two-person.js';
import type { DecisionOutcome } from '../services/two-person.js';

const CHANGE_ID = /^mc[0-9a-f]{16}$/;
const NOT_SET_UP =
  'Mass changes held for a second admin are not set up in this process (they need the records database).';

/** The sentence for what a decision came to. */
function sentenceOf(outcome: DecisionOutcome): { refused: boolean; text: string } {
  if (outcome.kind === 'refused') return { refused: true, text: REFUSAL_SENTENCES[outcome.reason] };
  const { submitter, figures } = outcome.change;
  return outcome.kind === 'approved' || outcome.kind === 'sent'
    ? { refused: false, text: decisionSentence({ kind: outcome.kind, started: outcome.started, submitter, figures }) }
    : { refused: false, text: decisionSentence({ kind: outcome.kind, submitter, figures }) };
}

export function registerTwoPerson(app: App, s: Surface): void {
  const { deps } = s;
  const click = (id: string, decide: (args: ClickArgs, changeId: string) => Promise<DecisionOutcome>) =>
    app.action<BlockAction<ButtonAction>>(
      id,
      onClick(s, { need: 'admin' }, async (args) => {
        const changeId = args.action.value ?? '';
        if (!deps.twoPerson) return tellClicker(s, args, buildLockedMessage(NOT_SET_UP));
        if (!CHANGE_ID.test(changeId)) return tellClicker(s, args, buildLockedMessage(BUTTON_GONE));
        const said = sentenceOf(await decide(args, changeId));
        // A refusal leaves the card as it is; a decision replaces it.
        if (said.refused) return tellClicker(s, args, buildLockedMessage(said.text));
        await createReplier(args.respond, deps, false).send({ text: said.text, blocks: [section(said.text)] });
      }),
    );

  const decide = (choice: 'approve' | 'reject') => async (args: ClickArgs, changeId: string) => {
    const rule = deps.twoPerson;
    if (!rule) throw new Error('unreachable: checked above');
    const actor = args.body.user.id;
    const change = await rule.get(changeId);
    // The scope is asked fresh: the decider must cover every pool the change touches.
    const scope = await scopeOf(deps, args.client, actor);
    const covers = (change?.poolIds ?? []).every((p) => inScope(scope, p));
    return rule.decide(changeId, actor, choice, covers);
  };
  const alone = (choice: 'send' | 'drop') => async (args: ClickArgs, changeId: string) => {
    const rule = deps.twoPerson;
    if (!rule) throw new Error('unreachable: checked above');
    return rule.decideAlone(changeId, args.body.user.id, choice);
  };
  click(TwoPersonActionId.approve, decide('approve'));
  click(TwoPersonActionId.reject, decide('reject'));
  click(TwoPersonActionId.sendAlone, alone('send'));
  click(TwoPersonActionId.dropAlone, alone('drop'));

  // The bulk modal's "Send it anyway" (its Close is "Do not send": the change then expires unsent).
  app.view(
    TwoPersonCallbackId.sendAlone,
    onSubmit(s, { need: 'admin', title: 'Bulk assign' }, async ({ ack, body, view }) => {
      const changeId = view.private_metadata ?? '';
      const rule = deps.twoPerson;
      const text = !rule
        ? NOT_SET_UP
        : !CHANGE_ID.test(changeId)
          ? BUTTON_GONE
          : sentenceOf(await rule.decideAlone(changeId, body.user.id, 'send')).text;
      await ack({
        response_action: 'update',
        view: modal({ callbackId: TwoPersonCallbackId.info, title: 'Bulk assign', blocks: [section(text)] }),
      });
    }),
  );
}
