/**
 * The two-person rule in Block Kit (docs/roles-and-approvals.md): the card to the other admins, what
 * the submitter sees when the change is held, the sole admin's "send it anyway?", the decider's reply
 * and the submitter's notice of the end. Data in, blocks out.
 */
import { TwoPersonActionId, TwoPersonCallbackId } from '../../kernel/blocks/ids.js';
import { actions, button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { type ModalView, modal } from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import type { MassChangeFigures } from '../domain/two-person.js';

export type { ModalView };

const mention = (user: string) => `<@${user}>`;
const poolText = (poolId: string, title: string) =>
  `pool \`${escapeTruncated(poolId, 64)}\` (*${escapeTruncated(title, 80)}*)`;

/** "assign 150 licenses in pool `2007` (*Course*)", "ask 30 holders in pool … whether they still learn". */
export function describeMassChange(f: MassChangeFigures): string {
  if (f.kind === 'bulk') return `assign ${count(f.rows, 'license')} in ${poolText(f.poolId, f.courseTitle)}`;
  const first = f.pools[0];
  const where =
    f.pools.length === 1 && first
      ? `in ${poolText(first.poolId, first.courseTitle)}`
      : `across ${count(f.pools.length, 'pool')}`;
  return `ask ${count(f.holders, 'holder')} ${where} whether they still need their seat`;
}

/** The dry run's figures, one line. */
export function figuresText(f: MassChangeFigures): string {
  if (f.kind === 'bulk') {
    const parts = [
      `${count(f.rows, 'row')} to send`,
      `${count(f.seatsFree, 'seat')} free`,
      ...(f.recycle > 0 ? [`${count(f.recycle, 'seat')} freed by ending the oldest licenses`] : []),
      ...(f.notSent > 0 ? [`${count(f.notSent, 'line')} set aside by the check`] : []),
      ...(f.endDate ? [`licenses end on ${dayText(f.endDate)}`] : []),
    ];
    return parts.join(' · ');
  }
  const policy =
    f.policy === 'release'
      ? 'seats not answered by the deadline are released'
      : 'seats not answered by the deadline are only listed';
  return [
    `${count(f.holders, 'holder')} to ask`,
    ...(f.notInSlack > 0 ? [`${f.notInSlack} not in Slack (not asked)`] : []),
    policy,
  ].join(' · ');
}

/** The card to each other admin of the scope. */
export function buildMassChangeCard(n: {
  changeId: string;
  submitter: string;
  figures: MassChangeFigures;
  expiresAt: string;
}): SlackMessage {
  const what = `${mention(n.submitter)} wants to ${describeMassChange(n.figures)}`;
  return {
    text: `A mass change waits for a second admin: ${what}`,
    blocks: [
      header('A second pair of eyes'),
      section(`${what}.`),
      context(`Dry run: ${figuresText(n.figures)}`),
      context(`Nothing is sent until a second admin approves. It expires ${slackMoment(n.expiresAt)}.`),
      actions([
        button(TwoPersonActionId.approve, 'Approve', n.changeId, 'primary'),
        button(TwoPersonActionId.reject, 'Reject', n.changeId, 'danger'),
      ]),
    ],
  };
}

function heldSentence(approvers: readonly string[], expiresAt: string): string {
  return `Sent for a second admin's approval: ${approvers.map(mention).join(', ')} got a card. Nothing is sent until one of them approves; it expires ${slackMoment(expiresAt)}, and you are told either way.`;
}

export const ALONE_QUESTION =
  'Nobody else can approve this: you are the only admin who could decide it. Send it anyway?';

/** A held change, as the submitter's reply (a reclaim round started from a message). */
export function buildHeldMessage(
  held: { kind: 'pending'; approvers: readonly string[]; expiresAt: string } | { kind: 'confirm'; changeId: string },
  figures: MassChangeFigures,
): SlackMessage {
  if (held.kind === 'pending') {
    const text = heldSentence(held.approvers, held.expiresAt);
    return { text, blocks: [section(`You asked to ${describeMassChange(figures)}.`), section(text)] };
  }
  return {
    text: ALONE_QUESTION,
    blocks: [
      section(`You asked to ${describeMassChange(figures)}. ${ALONE_QUESTION}`),
      context(`Dry run: ${figuresText(figures)}`),
      actions([
        button(TwoPersonActionId.sendAlone, 'Send it anyway', held.changeId, 'primary'),
        button(TwoPersonActionId.dropAlone, 'Do not send', held.changeId),
      ]),
    ],
  };
}

/** A held change, as the bulk modal's next view. */
export function buildHeldModal(
  held: { kind: 'pending'; approvers: readonly string[]; expiresAt: string } | { kind: 'confirm'; changeId: string },
  figures: MassChangeFigures,
  title: string,
): ModalView {
  if (held.kind === 'pending') {
    return modal({
      callbackId: TwoPersonCallbackId.info,
      title,
      blocks: [
        section(`You asked to ${describeMassChange(figures)}.`),
        section(heldSentence(held.approvers, held.expiresAt)),
      ],
    });
  }
  return modal({
    callbackId: TwoPersonCallbackId.sendAlone,
    title,
    submit: 'Send it anyway',
    close: 'Do not send',
    privateMetadata: held.changeId,
    blocks: [
      section(`You asked to ${describeMassChange(figures)}. ${ALONE_QUESTION}`),
      context(`Dry run: ${figuresText(figures)}`),
    ],
  });
}

/** What the decider (or the sole admin) is answered: one sentence. */
export function decisionSentence(
  outcome:
    | { kind: 'approved' | 'sent'; started: boolean; submitter: string; figures: MassChangeFigures }
    | { kind: 'rejected' | 'dropped'; submitter: string; figures: MassChangeFigures },
): string {
  const what = describeMassChange(outcome.figures);
  switch (outcome.kind) {
    case 'approved':
      return outcome.started
        ? `Approved: ${mention(outcome.submitter)}'s change to ${what} has started, and they were told.`
        : `Approved: ${mention(outcome.submitter)}'s change to ${what} could not start yet; License Desk tries again in a minute.`;
    case 'sent':
      return outcome.started
        ? `Sent on your word alone (audited): the change to ${what} has started.`
        : `Sent on your word alone (audited), but it could not start yet; License Desk tries again in a minute.`;
    case 'rejected':
      return `Rejected: nothing was sent, and ${mention(outcome.submitter)} was told.`;
    case 'dropped':
      return 'Not sent: nothing changed.';
  }
}

/** The refusals, one sentence each; nothing changed. */
export const REFUSAL_SENTENCES = {
  own: 'You submitted this change yourself: a second admin has to approve it. Nothing changed.',
  'not-yours': 'Only the admin who submitted this change can send it alone. Nothing changed.',
  decided: 'This change was already decided. Nothing changed.',
  expired: 'This change expired before anyone decided it; its admin can run it again. Nothing changed.',
  unknown: 'That change no longer exists; please run /licenses again. Nothing changed.',
  'out-of-scope': 'Only an admin of every pool this change touches can decide it. Nothing changed.',
} as const;

/** The submitter told of the end of their held change. */
export function buildMassChangeToldMessage(n: {
  figures: MassChangeFigures;
  outcome: 'approved' | 'rejected' | 'expired' | 'not-started';
  by?: string;
}): SlackMessage {
  const what = describeMassChange(n.figures);
  const by = n.by ? mention(n.by) : 'a second admin';
  const text =
    n.outcome === 'approved'
      ? `${by} approved your change to ${what}: it starts now.`
      : n.outcome === 'rejected'
        ? `${by} rejected your change to ${what}: nothing was sent.`
        : `Your change to ${what} expired before a second admin approved it: nothing was sent. Run it again to ask afresh.`;
  return { text, blocks: [section(text)] };
}

/** App Home's and `/licenses roles`' line: where the rule cannot hold (one person decides). */
export function soleDeciderLine(
  alone: readonly { decider: string; poolIds: readonly string[] }[],
  everyPool: boolean,
): string | undefined {
  if (alone.length === 0) return undefined;
  const parts = alone.map((a) =>
    everyPool
      ? `${mention(a.decider)} is the only admin`
      : `${mention(a.decider)} is the only admin of ${a.poolIds.length === 1 ? 'pool' : 'pools'} ${a.poolIds
          .slice(0, 10)
          .map((p) => `\`${escapeTruncated(p, 64)}\``)
          .join(', ')}${a.poolIds.length > 10 ? ` and ${a.poolIds.length - 10} more` : ''}`,
  );
  return `:warning: The two-person rule for mass changes cannot hold ${everyPool ? 'for any pool' : 'there'}: ${parts.join('; ')}. Their bulk jobs and reclaim rounds go out on their own confirmed word (audited); give the scope a second admin to have every one approved.`;
}
