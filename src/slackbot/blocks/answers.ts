/**
 * The Slackbot tools' answers in words (docs/slackbot.md): a short plain text for the model (and the
 * fallback Slack shows), and Block Kit for `_meta.slack.blocks` where a list reads better, within
 * Slack's limits for tool results (at most 50 top-level blocks; every string escaped here).
 */
import type { Forecast } from '../../digest/index.js';
import { slackbotToolActionId } from '../../kernel/blocks/ids.js';
import { type Block, button, context, header, section } from '../../kernel/blocks/kit.js';
import { LIMITS } from '../../kernel/blocks/limits.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { auditSentence } from '../../kernel/domain/audit-sentence.js';
import { dayText } from '../../kernel/domain/end-date.js';
import { escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/domain/mrkdwn.js';
import type { HolderRow, PersonLicense, PoolDetail, PoolForecast, PoolRow, WaitingRow } from '../domain/answers.js';

/** What a tool answers: the text, and the blocks when they say it better. */
export interface Answer {
  text: string;
  blocks?: Block[];
}

/** Top-level blocks in a tool's answer: Slack takes 50; a header and a closing line are kept free. */
export const MAX_ROWS = 45;

const e = (s: string, max = 200) => escapeTruncated(s, max);

function listed<T>(title: string, rows: readonly T[], line: (row: T) => string, more?: string): Block[] {
  const shown = rows.slice(0, MAX_ROWS);
  const rest = rows.length - shown.length;
  return [
    header(truncate(title, LIMITS.headerText)),
    ...shown.map((r) => section(truncate(line(r), LIMITS.sectionText))),
    ...(rest > 0 || more ? [context(rest > 0 ? `…and ${rest} more.${more ? ` ${more}` : ''}` : (more ?? ''))] : []),
  ];
}

const poolLine = (p: PoolRow) =>
  `Pool ${p.poolId} (${p.course}): ${p.free} free of ${p.licenses}, ends ${dayText(p.end)}${p.transferable ? '' : ', not transferable'}`;

export function poolsAnswer(pools: readonly PoolRow[]): Answer {
  if (pools.length === 0) return { text: 'There are no pools you can see.' };
  const free = pools.reduce((n, p) => n + Math.max(0, p.free), 0);
  return {
    text: [`${pools.length} pool(s), ${free} free seat(s) in all:`, ...pools.map(poolLine)].join('\n'),
    blocks: listed(
      'Pools and free seats',
      pools,
      (p) =>
        `*${e(p.course)}* · pool \`${escapeMrkdwn(p.poolId)}\`\n${p.free} free of ${p.licenses} · ends ${dayText(p.end)}${p.transferable ? '' : ' · not transferable'}`,
    ),
  };
}

export function forecastWords(f: Forecast): string {
  switch (f.kind) {
    case 'full':
      return 'it is full now';
    case 'too-little-history':
      return `too little history to tell yet (${f.days} day(s) recorded)`;
    case 'no-new-seats':
      return `no net new seats over the last ${f.overDays} days: it is not filling`;
    case 'fills':
      return `at the last ${f.overDays} days' pace it is full in about ${f.daysToFull} day(s), around ${dayText(f.fullOn)}`;
    case 'ends-first':
      return `at the last ${f.overDays} days' pace it would be full around ${dayText(f.fullOn)}, after it ends on ${dayText(f.endsOn)}`;
  }
}

export function poolAnswer(p: PoolDetail): Answer {
  const lines = [poolLine(p)];
  if (p.standing) {
    const s = p.standing;
    lines.push(
      `Progress records: ${s.holders} holder(s); ${s.completed} completed, ${s.notStarted} not started, ${s.stalled} stalled.`,
    );
  }
  if (p.forecast) lines.push(`Runs out: ${forecastWords(p.forecast)}.`);
  return {
    text: lines.join('\n'),
    blocks: [header(truncate(p.course, LIMITS.headerText)), ...lines.map((l) => section(escapeMrkdwn(l)))],
  };
}

export function runOutAnswer(rows: readonly PoolForecast[]): Answer {
  if (rows.length === 0) return { text: 'There are no pools you can see.' };
  const line = (r: PoolForecast) => `Pool ${r.poolId} (${r.course}), ${r.free} free: ${forecastWords(r.forecast)}.`;
  return {
    text: rows.map(line).join('\n'),
    blocks: listed('When pools run out', rows, (r) => escapeMrkdwn(line(r))),
  };
}

const STANDING_WORDS: Record<string, string> = {
  completed: 'finished',
  'not-started': 'not started',
  stalled: 'stalled',
  progressing: 'progressing',
};

export function holdersAnswer(what: string, total: number, rows: readonly HolderRow[]): Answer {
  if (rows.length === 0) return { text: `Nobody ${what}, by the progress records.` };
  const line = (h: HolderRow) =>
    `${h.name} <${h.email}>: ${h.progress}% in ${h.course} (pool ${h.poolId}, license ${h.licenseId}, ${STANDING_WORDS[h.standing] ?? h.standing})`;
  const more = total > rows.length ? `${total} in all; the first ${rows.length} are listed.` : undefined;
  return {
    text: [`${total} ${what}:`, ...rows.map(line), ...(more ? [more] : [])].join('\n'),
    blocks: listed(`${total} ${what}`, rows, (h) => escapeMrkdwn(line(h)), more),
  };
}

export function licensesAnswer(who: string, rows: readonly PersonLicense[], from: 'records' | 'licensing'): Answer {
  if (rows.length === 0) return { text: `No active license found for ${who}.` };
  const line = (l: PersonLicense) =>
    `${l.name ? `${l.name} ` : ''}${l.email ? `<${l.email}> ` : ''}license ${l.licenseId}: ${l.course} (pool ${l.poolId}), ${l.completed ? 'completed' : `${l.progress}%`}, ends ${dayText(l.end)}`;
  const source = from === 'records' ? 'From the progress records.' : 'From the licensing service.';
  return {
    text: [`${rows.length} active license(s) for ${who}:`, ...rows.map(line), source].join('\n'),
    blocks: listed(`Licenses for ${who}`, rows, (l) => escapeMrkdwn(line(l)), source),
  };
}

export function waitingAnswer(w: { waitlist: readonly WaitingRow[]; openRequests: readonly WaitingRow[] }): Answer {
  const inLine = (r: WaitingRow) => `#${r.place} in pool ${r.poolId}: <@${r.requester}> since ${dayText(r.since)}`;
  const open = (r: WaitingRow) =>
    `<@${r.requester}> asked for ${r.course ?? 'a course'} (pool ${r.poolId}) on ${dayText(r.since)}`;
  const text = [
    `Waitlist: ${w.waitlist.length === 0 ? 'nobody waits.' : ''}`,
    ...w.waitlist.map(inLine),
    `Requests waiting for a decision: ${w.openRequests.length === 0 ? 'none.' : ''}`,
    ...w.openRequests.map(open),
  ].join('\n');
  const rows = [
    ...w.waitlist.map((r) => `:hourglass: ${escapeMrkdwn(inLine(r)).replace(/&lt;@(\w+)&gt;/g, '<@$1>')}`),
    ...w.openRequests.map((r) => `:envelope: ${escapeMrkdwn(open(r)).replace(/&lt;@(\w+)&gt;/g, '<@$1>')}`),
  ];
  return { text, ...(rows.length > 0 ? { blocks: listed('Waitlist and open requests', rows, (r) => r) } : {}) };
}

export function historyAnswer(about: string, entries: readonly AuditEntry[]): Answer {
  if (entries.length === 0) return { text: `No history about ${about}.` };
  const line = (x: AuditEntry) => `${dayText(x.at)}: ${auditSentence(x, { emails: true })}`;
  return {
    text: [`The newest ${entries.length} entries about ${about}:`, ...entries.map(line)].join('\n'),
    blocks: listed(`History: ${about}`, entries, line),
  };
}

/** A change's preview: exactly what would happen, and the Confirm button that calls the tool again with the token. */
export function previewAnswer(tool: string, what: string, args: Record<string, unknown>, minutes: number): Answer {
  const value = JSON.stringify(args);
  const note = `Nothing has changed yet. To make the change, call ${tool} again with confirmToken within ${minutes} minutes (only you can).`;
  return {
    text: `Preview: ${what}\n${note}`,
    blocks: [
      section(`:eyes: *Preview:* ${escapeMrkdwn(what)}`),
      context(`Nothing has changed yet. Confirm within ${minutes} minutes; only you can.`),
      ...(value.length <= 2000
        ? [{ type: 'actions' as const, elements: [button(slackbotToolActionId(tool), 'Confirm', value, 'primary')] }]
        : []),
    ],
  };
}

export const sentenceAnswer = (text: string): Answer => ({ text, blocks: [section(escapeMrkdwn(text))] });
