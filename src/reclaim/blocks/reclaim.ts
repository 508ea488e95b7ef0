/**
 * Reclaim rounds in Block Kit (docs/reclaim.md): the admin's preview and round message, the holder's
 * question, reminder and "released" message. Student e-mails appear only in the admin's ephemeral
 * preview and the admin's own DM (the round message), never in a channel.
 */
import * as z from 'zod';
import { ReclaimActionId, RequestActionId } from '../../kernel/blocks/ids.js';
import {
  actions,
  type Block,
  type ButtonElement,
  button,
  context,
  header,
  plain,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { dayText, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { percentText } from '../../kernel/blocks/percent.js';
import { count } from '../../kernel/domain/count.js';
import type {
  ReclaimAnswerOutcome,
  ReclaimAskNotice,
  ReclaimOpenRound,
  ReclaimPolicy,
  ReclaimPoolPreview,
  ReclaimPreview,
  ReclaimRoundSummary,
  ReclaimRoundView,
  ReclaimSettings,
} from '../domain/reclaim.js';

export const RECLAIM_OFF =
  'Reclaim rounds are not set up in this License Desk process (they need the records database); ask whoever runs License Desk.';

const StartValue = z.object({ p: z.string().max(64).nullable(), policy: z.enum(['release', 'list']) });

export function encodeReclaimStart(poolId: string | undefined, policy: ReclaimPolicy): string {
  return JSON.stringify({ p: poolId ?? null, policy });
}

export function decodeReclaimStart(value: string): { poolId?: string; policy: ReclaimPolicy } | undefined {
  try {
    const v = StartValue.parse(JSON.parse(value));
    return { ...(v.p ? { poolId: v.p } : {}), policy: v.policy };
  } catch {
    return undefined;
  }
}

const MAX_LINES = 15;
const MAX_POOLS = 8;
/** The characters the preview's lists share, under Slack's 12,000 for a whole message. */
const PREVIEW_BUDGET = 8000;

const pct = percentText;

/** "stalled at 40 % since at least Oct 1, 2026" / "not started since Sep 1, 2026". */
function standingText(a: { standing: string; progress: number; since: string; watched: boolean }): string {
  const since = `since ${a.watched ? '' : 'at least '}${dayText(a.since.slice(0, 10)) || escapeTruncated(a.since, 30)}`;
  return a.standing === 'stalled' ? `stalled at ${pct(a.progress)} ${since}` : `not started (0 %) ${since}`;
}

/**
 * At most MAX_LINES lines and `budget` characters (a section holds 3,000; a message 12,000 in all),
 * then "…and N more".
 */
function lines(items: string[], budget = 2400): string {
  const shown: string[] = [];
  let size = 0;
  for (const item of items) {
    if (shown.length >= MAX_LINES || size + item.length > budget) break;
    shown.push(item);
    size += item.length + 1;
  }
  const more = items.length - shown.length;
  return [...shown, ...(more > 0 ? [`…and ${more} more`] : [])].join('\n');
}

export function buildReclaimPreviewMessage(p: ReclaimPreview): SlackMessage {
  if (p.kind !== 'preview') return noPreviewMessage(p);
  const s = p.settings;
  const asked = p.pools.reduce((n, x) => n + x.ask.length, 0);
  const notInSlack = p.pools.reduce((n, x) => n + x.notInSlack.length, 0);
  const kept = p.pools.reduce((n, x) => n + x.keptRecently, 0);
  const already = p.pools.reduce((n, x) => n + x.alreadyAsked, 0);
  const blocks: Block[] = [
    header('Reclaim round: still learning?'),
    context(
      `Preview, nothing sent yet. Holders of transferable pools who have not started (0 % after ${count(s.notStartedDays, 'day')}) or stalled (no progress for ${count(s.stalledDays, 'day')}).${
        p.untransferable > 0
          ? ` ${count(p.untransferable, 'untransferable pool')} left out: a revoke there gives no seat back.`
          : ''
      }`,
    ),
  ];
  const shownPools = p.pools.slice(0, MAX_POOLS);
  const budget = Math.min(2400, Math.floor(PREVIEW_BUDGET / Math.max(1, 2 * shownPools.length)));
  for (const pool of shownPools) blocks.push(...poolPreviewBlocks(pool, s, budget));
  if (p.pools.length > MAX_POOLS)
    blocks.push(
      context(`…and ${p.pools.length - MAX_POOLS} more pools: \`/licenses reclaim <poolId>\` shows one pool in full.`),
    );
  const summary = `${count(asked, 'holder')} would be asked, ${notInSlack} cannot be asked (not in Slack), ${kept} left out (chose Keep), ${already} already asked.`;
  if (asked === 0) {
    blocks.push(section(`Nobody to ask. ${summary}`));
    return { text: `Reclaim preview: nobody to ask. ${summary}`, blocks };
  }
  blocks.push(
    section(
      `${summary}\nThey get a DM with *Keep my seat* and *Release it*, a reminder on day ${s.reminderDay}, and ${count(s.deadlineDays, 'day')} to answer. Choose what happens to the seats of those who do not answer:`,
    ),
    startActions(p.poolId, asked, s),
  );
  return { text: `Reclaim preview: ${summary}`, blocks };
}

/** The preview when there is nothing to preview: no records yet, an untransferable or unknown pool. */
function noPreviewMessage(p: Exclude<ReclaimPreview, { kind: 'preview' }>): SlackMessage {
  if (p.kind === 'no-records') {
    const t =
      'No progress has been recorded yet (the daily progress pass has not run), so nobody can be judged stalled or not started. Nothing was started; try again after the next pass.';
    return { text: t, blocks: [section(`:hourglass_flowing_sand: ${t}`)] };
  }
  if (p.kind === 'untransferable') {
    const t = `Pool \`${escapeTruncated(p.poolId, 64)}\` (*${escapeTruncated(p.courseTitle, 80)}*) is untransferable: a revoke there gives no seat back, so it has no reclaim round.`;
    return { text: t, blocks: [section(`:no_entry_sign: ${t}`)] };
  }
  const t = `There is no pool \`${escapeTruncated(p.poolId, 64)}\`. Try \`/licenses pools\`.`;
  return { text: t, blocks: [section(`:x: ${t}`)] };
}

/** One pool of the preview: who would be asked, who cannot be, who is left out; or its open round. */
function poolPreviewBlocks(pool: ReclaimPoolPreview, s: ReclaimSettings, budget: number): Block[] {
  const where = `*${escapeTruncated(pool.courseTitle, 80)}* (pool \`${escapeTruncated(pool.poolId, 64)}\`)`;
  if (pool.openRound)
    return [section(`${where}: ${openRoundWords(pool.openRound)}: nobody else is asked here before it closes.`)];
  const head = `${where}: ${count(pool.waiting, 'request')} waiting for a seat`;
  const ask = pool.ask.map(
    (c) =>
      `• ${escapeTruncated(c.studentName, 60)} (${escapeTruncated(c.studentEmail, 80)}): ${standingText(c)}, held ${count(c.daysHeld, 'day')}`,
  );
  const cannot = pool.notInSlack.map(
    (c) => `• ${escapeTruncated(c.studentName, 60)} (${escapeTruncated(c.studentEmail, 80)}): ${standingText(c)}`,
  );
  const left = [
    ...(pool.keptRecently > 0 ? [`${pool.keptRecently} chose Keep within ${count(s.keepDays, 'day')}`] : []),
    ...(pool.alreadyAsked > 0 ? [`${pool.alreadyAsked} already asked in an open round`] : []),
  ];
  return [
    section(`${head}\n${ask.length > 0 ? `Would be asked:\n${lines(ask, budget)}` : 'Nobody to ask here.'}`),
    ...(cannot.length > 0
      ? [section(`Cannot be asked (no Slack account for the e-mail):\n${lines(cannot, budget)}`)]
      : []),
    ...(left.length > 0 ? [context(`Left out: ${left.join('; ')}.`)] : []),
  ];
}

/** The two Start buttons: release the seats of those who do not answer (confirmed), or only list them. */
function startActions(poolId: string | undefined, asked: number, s: ReclaimSettings): Block {
  const releaseButton: ButtonElement = {
    ...button(
      ReclaimActionId.startRelease,
      'Start: release their seats',
      encodeReclaimStart(poolId, 'release'),
      'danger',
    ),
    confirm: {
      title: plain('Start the round?'),
      text: plain(
        `${count(asked, 'holder')} will be asked. Those who do not answer within ${count(s.deadlineDays, 'day')} lose their seat (it goes to the waitlist first).`,
      ),
      confirm: plain('Start'),
      deny: plain('Cancel'),
      style: 'danger',
    },
  };
  const listButton = button(
    ReclaimActionId.startList,
    'Start: only list them for me',
    encodeReclaimStart(poolId, 'list'),
    'primary',
  );
  return actions([releaseButton, listButton], 'reclaim_start');
}

/** "a round is already open here, started by @admin on Nov 25, deadline Dec 2 at 10:00" */
function openRoundWords(r: ReclaimOpenRound): string {
  return `a reclaim round is already open here, started by <@${r.admin}> ${slackMoment(r.startedAt)}, deadline ${slackMoment(r.deadlineAt)}`;
}

export function buildReclaimStartedMessage(
  outcome:
    | { kind: 'started'; asked: number; notInSlack: number; deadlineAt: string }
    | { kind: 'nobody' }
    | { kind: 'already-open'; rounds: readonly ReclaimOpenRound[] },
): SlackMessage {
  if (outcome.kind === 'already-open') {
    // One open round per pool: a second Start (another admin, a second click) asks nobody.
    const first = outcome.rounds[0];
    const where =
      outcome.rounds.length === 1 && first
        ? `pool \`${escapeTruncated(first.poolId, 64)}\``
        : `${outcome.rounds.length || 'these'} pools`;
    const t = `Nothing was started: a reclaim round is already open for ${where}${
      first ? `, deadline ${dayText(first.deadlineAt.slice(0, 10))}` : ''
    }. Its holders were asked then; one round per pool is open at a time.`;
    const lines = outcome.rounds
      .slice(0, MAX_LINES)
      .map((r) => `• pool \`${escapeTruncated(r.poolId, 64)}\`: ${openRoundWords(r).replace(' here', '')}`);
    const body = `:information_source: Nothing was started: one reclaim round per pool is open at a time, and its holders were already asked.\n${
      lines.length > 0 ? lines.join('\n') : 'Another round was started for these pools a moment ago.'
    }\nWait for its deadline, or look at your DM from License Desk for its answers.`;
    return { text: t, blocks: [section(body)] };
  }
  if (outcome.kind === 'nobody') {
    const t = 'Nobody to ask any more (answers or progress changed since the preview). Nothing was started.';
    return { text: t, blocks: [section(t)] };
  }
  const t = `Round started: ${count(outcome.asked, 'holder')} asked by DM; ${outcome.notInSlack} not in Slack. Deadline ${slackMoment(outcome.deadlineAt)}. Your DM from License Desk shows the answers as they come.`;
  return { text: t, blocks: [section(`:white_check_mark: ${t}`)] };
}

function askLine(a: ReclaimAskNotice): string {
  return `*${escapeTruncated(a.courseTitle, 80)}*: you are ${standingText(a)}`;
}

function answerButtons(a: ReclaimAskNotice): Block {
  const release: ButtonElement = {
    ...button(ReclaimActionId.release, 'Release it', a.askId, 'danger'),
    confirm: {
      title: plain('Release your seat?'),
      text: plain(
        `Your license for ${a.courseTitle} ends now and the seat goes to someone waiting. You can ask for it again later.`,
      ),
      confirm: plain('Release it'),
      deny: plain('Keep it'),
      style: 'danger',
    },
  };
  return actions([button(ReclaimActionId.keep, 'Keep my seat', a.askId, 'primary'), release], `reclaim_ask_${a.askId}`);
}

export function buildReclaimAskMessage(a: ReclaimAskNotice): SlackMessage {
  const text = `Still learning ${a.courseTitle}? Please answer by ${dayText(a.deadlineAt.slice(0, 10))}.`;
  return {
    text: escapeTruncated(text, 300),
    blocks: [
      section(
        `:wave: Still learning? ${askLine(a)}.\nSeats are limited and others are waiting. Do you want to keep yours? Please answer by ${slackMoment(a.deadlineAt)}.`,
      ),
      answerButtons(a),
    ],
  };
}

export function buildReclaimReminderMessage(asks: readonly ReclaimAskNotice[]): SlackMessage {
  const blocks: Block[] = [section(':bell: A reminder: please tell us whether you still want these seats.')];
  for (const a of asks.slice(0, 20)) {
    blocks.push(section(`${askLine(a)}. Answer by ${slackMoment(a.deadlineAt)}.`));
    blocks.push(answerButtons(a));
  }
  return { text: `Reminder: ${count(asks.length, 'seat')} waiting for your answer.`, blocks };
}

export function buildReclaimReleasedMessage(a: ReclaimAskNotice, by: 'holder' | 'deadline'): SlackMessage {
  const why = by === 'holder' ? 'as you chose' : 'since there was no answer by the deadline';
  const t = `Your seat for ${a.courseTitle} was released ${why}; you can ask for it again.`;
  return {
    text: escapeTruncated(t, 300),
    blocks: [
      section(
        `:outbox_tray: Your seat for *${escapeTruncated(a.courseTitle, 80)}* was released ${why}; you can ask for it again.`,
      ),
      actions([button(RequestActionId.openFor, 'Ask for it again', a.poolId)], `reclaim_again_${a.askId}`),
    ],
  };
}

export function buildReclaimAnswerMessage(o: ReclaimAnswerOutcome): SlackMessage {
  switch (o.kind) {
    case 'kept': {
      const t = `Thanks: you keep your seat for ${o.ask.courseTitle}. We will not ask again for ${count(o.keepDays, 'day')}.`;
      return { text: escapeTruncated(t, 300), blocks: [section(`:white_check_mark: ${escapeTruncated(t, 400)}`)] };
    }
    case 'released':
      return buildReclaimReleasedMessage(o.ask, 'holder');
    case 'not-yours': {
      const t = 'That question was not for you, or it is gone.';
      return { text: t, blocks: [section(t)] };
    }
    case 'already': {
      const t =
        o.state === 'kept'
          ? 'You already chose to keep this seat.'
          : o.state === 'released'
            ? 'This seat was already released.'
            : 'This question was already answered or closed.';
      return { text: t, blocks: [section(t)] };
    }
    case 'too-late': {
      const t = `This question about ${o.ask.courseTitle} is closed: its reclaim round ended at its deadline, ${dayText(o.ask.deadlineAt.slice(0, 10))}. Your answer was not recorded and nothing changed.`;
      const b = `This question about *${escapeTruncated(o.ask.courseTitle, 80)}* is closed: its reclaim round ended at its deadline, ${slackMoment(o.ask.deadlineAt)}. Your answer was not recorded and nothing changed.`;
      return { text: escapeTruncated(t, 300), blocks: [section(b)] };
    }
    case 'superseded': {
      const what =
        o.by === 'released'
          ? 'your seat was already released in another reclaim round'
          : 'you already chose to keep this seat in another reclaim round';
      const t = `This question about ${o.ask.courseTitle} is closed: ${what}. Your answer was not recorded and nothing changed.`;
      const b = `This question about *${escapeTruncated(o.ask.courseTitle, 80)}* is closed: ${what}. Your answer was not recorded and nothing changed.`;
      return { text: escapeTruncated(t, 300), blocks: [section(b)] };
    }
    case 'release-failed': {
      const t = `Your seat for ${o.ask.courseTitle} could not be released (${o.sentence}). Nothing changed; please try again later.`;
      return {
        text: escapeTruncated(t, 300),
        blocks: [section(`:x: ${escapeTruncated(t, 1000)}`), answerButtons(o.ask)],
      };
    }
  }
}

/** What a round covers, its figures and where it stands: the round message's words, and App Home's. */
export function roundWords(
  v: ReclaimRoundSummary,
  listedWhere = 'here',
): { where: string; figures: string; state: string } {
  const where = v.poolId ? `pool \`${escapeTruncated(v.poolId, 64)}\`` : 'every transferable pool';
  const policy =
    v.policy === 'release'
      ? 'seats of those who do not answer are released'
      : `those who do not answer are listed ${listedWhere}`;
  const figures = `Asked ${v.asked} · kept ${v.kept} · released ${v.released} · no answer ${v.noAnswer} · not in Slack ${v.notInSlack}${
    v.failed > 0 ? ` · release failed ${v.failed}` : ''
  }`;
  const state = v.closed
    ? `Closed at the deadline, ${slackMoment(v.deadlineAt)}.`
    : `Deadline ${slackMoment(v.deadlineAt)}; ${policy}.`;
  return { where, figures, state };
}

export function buildReclaimRoundMessage(v: ReclaimRoundView): SlackMessage {
  const { where, figures, state } = roundWords(v);
  const blocks: Block[] = [header('Reclaim round'), section(`Round for ${where}.\n${figures}\n${state}`)];
  if (v.listed.length > 0) {
    const items = v.listed.map(
      (l) =>
        `• ${escapeTruncated(l.studentName, 60)} (${escapeTruncated(l.studentEmail, 80)}), *${escapeTruncated(l.courseTitle, 80)}*, license \`${escapeTruncated(l.licenseId, 64)}\``,
    );
    blocks.push(section(`${v.policy === 'list' ? 'No answer, for you to look at' : 'Not released'}:\n${lines(items)}`));
  }
  return { text: `Reclaim round: ${figures}`, blocks };
}
