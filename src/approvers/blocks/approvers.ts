/**
 * The approvers' words (docs/roles-and-approvals.md): App Home's "Away and delegates" section, the
 * away form, the owners' card of a delegation waiting for their yes, the DMs that tell of it, the
 * line a routed card carries, and the daily "waiting for you" list. Data in, blocks out.
 */
import { ApproverActionId, ApproverCallbackId, ApproverInputId, RequestActionId } from '../../kernel/blocks/ids.js';
import {
  actions,
  type Block,
  button,
  context,
  divider,
  header,
  plain,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { input, type ModalView } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { CardTo, Delegation, WaitingItem } from '../domain/delegation.js';

const day = (d: string) => dayText(`${d}T00:00:00Z`) || d;
const days = (d: Delegation) => `from ${day(d.fromDay)} until ${day(d.untilDay)}`;

/** App Home's section for an approver: their delegation (live or none) and their choice of the daily list. */
export function buildAwayHomeSection(input: { delegation: Delegation | undefined; dailyList: boolean }): Block[] {
  const d = input.delegation;
  const away = d
    ? section(
        `Your approvals go to <@${d.delegate}> ${days(d)}${
          d.state === 'waiting' ? ' — *waiting for an owner’s yes*: until then they still come to you' : ''
        }.`,
        button(ApproverActionId.awayEnd, 'End it now', d.id, 'danger'),
      )
    : section(
        'Away? Your approval cards can go to someone else for those days.',
        button(ApproverActionId.awayOpen, 'Set an away delegate…'),
      );
  const daily = input.dailyList
    ? section(
        'You get *one daily list* of what waits for you instead of a card per request.',
        button(ApproverActionId.dailyList, 'A card per request', 'off'),
      )
    : section(
        'Each course request comes to you as its own card.',
        button(ApproverActionId.dailyList, 'One daily list instead', 'on'),
      );
  return [divider(), header('Away and delegates'), away, daily];
}

/** The away form: the first and last day away, and who gets the cards meanwhile. */
export function buildAwayModal(today: string): ModalView {
  return {
    type: 'modal',
    callback_id: ApproverCallbackId.awayForm,
    title: plain('Away and delegates'),
    submit: plain('Delegate'),
    close: plain('Cancel'),
    blocks: [
      input(ApproverInputId.from.block, 'Away from', {
        type: 'datepicker',
        action_id: ApproverInputId.from.action,
        initial_date: today,
      }),
      input(ApproverInputId.until.block, 'Until (the last day away)', {
        type: 'datepicker',
        action_id: ApproverInputId.until.action,
      }),
      input(
        ApproverInputId.delegate.block,
        'My approvals go to',
        { type: 'users_select', action_id: ApproverInputId.delegate.action, placeholder: plain('Pick a person') },
        {
          hint: 'Someone without an admin role on your pools needs an owner’s yes first; until then the cards keep coming to you.',
        },
      ),
    ],
  };
}

/** The card an owner gets for a delegation to someone without a role on those pools. */
export function buildDelegationAskMessage(d: Delegation): SlackMessage {
  const text = `<@${d.approver}> will be away ${days(d)} and asks that their approval cards go to <@${d.delegate}>, who holds no admin role on those pools.`;
  const blocks: Block[] = [header('Delegation to approve'), section(text)];
  if (d.state === 'waiting') {
    blocks.push(
      context('Approve lets them decide those requests for those days only; nothing else changes.'),
      actions([
        button(ApproverActionId.accept, 'Approve', d.id, 'primary'),
        button(ApproverActionId.refuse, 'Refuse', d.id, 'danger'),
      ]),
    );
  } else {
    blocks.push(context(delegationStateLine(d)));
  }
  return { text, blocks };
}

function delegationStateLine(d: Delegation): string {
  const by = d.decidedBy ? ` by <@${d.decidedBy}>` : '';
  if (d.state === 'active') return `:white_check_mark: Approved${by}.`;
  if (d.state === 'refused') return `:no_entry_sign: Refused${by}.`;
  if (d.state === 'ended') return ':heavy_multiplication_x: Ended.';
  return ':hourglass_flowing_sand: Waiting for an owner’s yes.';
}

/** The approver's DM (and the delegate's, once it is in force) about a delegation's outcome. */
export function buildDelegationToldMessage(d: Delegation, to: 'approver' | 'delegate'): SlackMessage {
  const text =
    to === 'delegate'
      ? `<@${d.approver}> is away ${days(d)}: their course request cards come to you for those days. Your decisions are recorded as made for them.`
      : d.state === 'refused'
        ? `An owner refused your delegation to <@${d.delegate}>: your approval cards keep coming to you.`
        : `Your approval cards go to <@${d.delegate}> ${days(d)}. End it early from App Home.`;
  return { text, blocks: [section(text)] };
}

/** The line a routed card carries: the approver a delegate stands in for. */
export function delegateLine(to: CardTo): string | undefined {
  return to.for ? `:busy_in_meeting: You get this card for <@${to.for}>, who is away.` : undefined;
}

/** The line a card in the requests channel carries: whom it is for (the pool's approvers, or their delegates). */
export function channelLine(cards: readonly CardTo[]): string | undefined {
  if (cards.length === 0) return undefined;
  const who = cards.map((c) => (c.for ? `<@${c.user}> (for <@${c.for}>)` : `<@${c.user}>`)).join(', ');
  return `For ${who}`;
}

/** A card with one more context line at its end. */
export function withLine(message: SlackMessage, line: string | undefined): SlackMessage {
  if (!line) return message;
  return { ...message, blocks: [...(message.blocks ?? []), context(line)] };
}

/** Requests one daily list shows (the rest counted): Slack's 50 blocks of a message. */
export const DAILY_LIST_MAX = 20;

/** The daily "waiting for you" DM: each request with Approve and Deny…, oldest first. */
export function buildDailyListMessage(items: readonly WaitingItem[]): SlackMessage {
  const text = `${items.length} course request${items.length === 1 ? '' : 's'} waiting for you`;
  const blocks: Block[] = [header('Waiting for you')];
  for (const r of items.slice(0, DAILY_LIST_MAX)) {
    blocks.push(
      section(
        `<@${r.requester}> asks for *${escapeTruncated(r.courseTitle, 200)}* (pool \`${escapeTruncated(r.poolId, 64)}\`), since ${day(r.createdAt.slice(0, 10))}`,
      ),
      actions([
        button(RequestActionId.approve, 'Approve', r.requestId, 'primary'),
        button(RequestActionId.deny, 'Deny…', r.requestId, 'danger'),
      ]),
    );
  }
  if (items.length > DAILY_LIST_MAX)
    blocks.push(context(`…and ${items.length - DAILY_LIST_MAX} more: see /licenses requests.`));
  blocks.push(context('You chose one daily list instead of a card per request; change it on App Home.'));
  return { text, blocks };
}

/** The answers to a click on the away section or the owners' card. */
export const APPROVER_WORDS = {
  ownersOnly: 'Only an owner (LICENSE_ADMINS) can approve or refuse a delegation.',
  notYours: 'Only the approver who set this delegation, or an owner, can end it.',
  gone: 'That delegation no longer exists; open App Home again.',
  alreadyDecided: 'That delegation was decided already.',
  notMember:
    'That person cannot receive your approvals: pick a full member of the workspace (not a guest, a bot or a deactivated account).',
  approversOnly: 'Only license admins have approvals to delegate.',
} as const;
