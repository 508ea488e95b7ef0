/**
 * The App Home dashboard: pool cards, licenses ending within 14 days, recent changes, quick
 * actions. Pure. A Home tab holds 100 blocks and, like a message, renders badly past ~12k characters
 * of text (limits.ts), so every list is capped and says how many more there are.
 */

import type { DashboardData } from '../../digest/index.js';
import { SANDBOX_MARKER } from '../../kernel/blocks/common.js';
import { ActionId, DeskActionId, RequestActionId } from '../../kernel/blocks/ids.js';
import { actions, type Block, button, context, divider, header, section } from '../../kernel/blocks/kit.js';
import { endText } from '../../kernel/blocks/license-text.js';
import { dayText, escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { poolText } from '../../kernel/blocks/pool-text.js';
import type { AuditEntry } from '../../kernel/domain/audit-entry.js';
import { count } from '../../kernel/domain/count.js';
import { type HomeProgress, standingCountsText } from '../../progress/index.js';
import { type ReclaimRoundSummary, roundWords } from '../../reclaim/index.js';
import { homeRecentLine } from './home-recent.js';

export interface HomeView {
  type: 'home';
  blocks: Block[];
}

export const HOME_MAX_POOLS = 15;
export const HOME_MAX_ENDING = 20;
/** Lines per section: each line stays under ~250 characters, a section holds 3,000. */
const LINES_PER_SECTION = 10;

export interface HomeInput {
  /** The gate's verdict: may this person change licenses (admins) or only look (viewers)? */
  canChange: boolean;
  data: DashboardData | undefined;
  now: Date;
  sandbox: boolean;
  /** One plain sentence under the title, e.g. why the data was not refreshed. */
  note?: string;
  /** The data is being read now (shown with the cached data, or alone). */
  refreshing?: boolean;
  /** May this person ask for a course (requests set up, REQUESTERS lets them in)? Default true. */
  canRequest?: boolean;
  /** What the daily progress pass recorded (docs/progress.md): counts per pool, seats to return. */
  progress?: HomeProgress;
  /** Admins: the reclaim rounds still open or closed in the last week, newest first (figures only). */
  rounds?: ReclaimRoundSummary[];
  /** Admins: messages to people the outbox gave up in the last 7 days (docs/records.md, "The outbox"). */
  undelivered?: { count: number; kinds: string[] };
  /** The outcome of what this person just did on Home (mrkdwn, built by its builder), shown once on top. */
  result?: string;
  /** The daily progress pass runs in this process: admins get "Run the progress pass now". */
  progressPass?: boolean;
}

/** What a kind of outbox notice is about, in words; an unknown kind is named as it is. */
const NOTICE_WORDS: Record<string, string> = {
  'request-received': 'new course requests',
  'request-changed': 'course request updates',
  'request-reminder': 'course request reminders',
  'waitlist-assigned': 'waitlist seats',
  'waitlist-skipped': 'waitlist seats',
  'approval-settled': 'approvals settled later',
  'settled-write': 'writes settled after a restart',
  'reclaim-ask': 'reclaim rounds',
  'reclaim-reminder': 'reclaim rounds',
  'reclaim-released': 'reclaim rounds',
  'reclaim-round': 'reclaim rounds',
  'progress-return': 'automatic returns',
  'progress-returns': 'automatic returns',
  digest: 'the weekly digest',
  'learner-reminder': 'reminders before a license ends',
};

/** Admins: the messages License Desk gave up on lately, so someone tells those people another way. */
function undeliveredBlocks(input: HomeInput): Block[] {
  const u = input.undelivered;
  if (!input.canChange || !u || u.count === 0) return [];
  const about = [...new Set(u.kinds.map((k) => NOTICE_WORDS[k] ?? k))].join(', ');
  return [
    section(
      `:warning: *${count(u.count, 'message', 'messages')} to people could not be delivered* in the last 7 days and ${u.count === 1 ? 'was' : 'were'} given up after every retry (${escapeTruncated(about, 300)}). The log names each one (“given up”); the people concerned have not been told.`,
    ),
  ];
}

function asOf(at: Date): string {
  const s = Math.floor(at.getTime() / 1000);
  return `<!date^${s}^{date_short_pretty} at {time}|${at.toISOString().slice(0, 16).replace('T', ' ')} UTC>`;
}

/**
 * Lines packed into sections of at most `max` characters (a section holds 3,000) and `perSection`
 * lines: escaping can make a line several times longer than the text it shows, so count, not guess.
 */
export function sectionsOf(lines: readonly string[], perSection = LINES_PER_SECTION, max = 2900): Block[] {
  const out: Block[] = [];
  let current: string[] = [];
  let size = 0;
  for (const raw of lines) {
    const line = truncate(raw, max);
    if (current.length > 0 && (current.length >= perSection || size + line.length + 1 > max)) {
      out.push(section(current.join('\n')));
      current = [];
      size = 0;
    }
    current.push(line);
    size += line.length + 1;
  }
  if (current.length > 0) out.push(section(current.join('\n')));
  return out;
}

function quickActions(canChange: boolean, canRequest: boolean, progressPass = false): Block {
  const els = [
    ...(canRequest ? [button(RequestActionId.open, 'Request a course', 'request')] : []),
    button(DeskActionId.homeRefresh, ':arrows_counterclockwise: Refresh', 'refresh'),
  ];
  if (canChange) {
    els.unshift(
      button(ActionId.poolAssign, 'Assign a license', undefined, 'primary'),
      button(DeskActionId.bulkOpen, 'Bulk assign', 'bulk'),
    );
    if (progressPass) els.push(button(DeskActionId.progressRun, 'Run the progress pass now', 'progress'));
  }
  return actions(els, 'home_actions');
}

function poolBlocks(data: DashboardData, now: Date, progress?: HomeProgress): Block[] {
  const standings = new Map((progress?.standings ?? []).map((c) => [c.poolId, standingCountsText(c)]));
  const t = now.getTime();
  const running = data.pools.filter((p) => Date.parse(p.end) > t);
  const ended = data.pools.length - running.length;
  // Pools that need attention first (no seat left, ending soonest), then by course.
  const sorted = [...running].sort(
    (a, b) =>
      Number(a.availableLicenses > 0) - Number(b.availableLicenses > 0) ||
      a.end.localeCompare(b.end) ||
      a.course.title.localeCompare(b.course.title),
  );
  const free = running.reduce((n, p) => n + Math.max(0, p.availableLicenses), 0);
  const total = running.reduce((n, p) => n + p.licenses, 0);
  const summary = `*Pools* · ${running.length} running · ${free} of ${count(total, 'seat')} free${ended > 0 ? ` · ${ended} ended` : ''}`;
  const shown = sorted.slice(0, HOME_MAX_POOLS).map((p) => {
    const counts = standings.get(p.id);
    return section(counts ? `${poolText(p, now, 80)}\n${counts}` : poolText(p, now, 80));
  });
  const more =
    sorted.length > HOME_MAX_POOLS
      ? [context(`${count(sorted.length - HOME_MAX_POOLS, 'more pool')}: \`/licenses pools\` lists them all.`)]
      : [];
  if (running.length === 0) return [section(`${summary}\nNo running pools.`)];
  return [section(summary), ...shown, ...more];
}

function endingBlocks(data: DashboardData, now: Date): Block[] {
  const title = '*Licenses ending within 14 days*';
  if (data.ending === undefined) {
    return [
      section(
        `${title}\nNot read this time: scanning every license would spend more than the dashboard's share of the licensing rate budget. The daily alerts still name licenses ending within 7 days.`,
      ),
    ];
  }
  if (data.ending.length === 0) return [section(`${title}\nNone.`)];
  const titles = new Map(data.pools.map((p) => [p.id, p.course.title]));
  // Names only: the Home tab is private, but a screen is easily shared; e-mails stay in /licenses.
  const lines = data.ending
    .slice(0, HOME_MAX_ENDING)
    .map(
      (l) =>
        `• *${escapeTruncated(l.student.name, 60)}* · ${escapeTruncated(titles.get(l.poolId) ?? `pool ${l.poolId}`, 60)} · ${endText(l.end, now)} · license \`${escapeMrkdwn(l.id)}\``,
    );
  const more = data.ending.length - HOME_MAX_ENDING;
  return [
    section(`${title} · ${data.ending.length}`),
    ...sectionsOf(lines),
    ...(more > 0 ? [context(`${more} more: \`/licenses list\` shows every license.`)] : []),
  ];
}

/**
 * Completed courses in transferable pools (admins only): "Return this seat" opens the revoke
 * confirmation, so a confirmed return revokes once and the seat goes to the pool (or its waitlist).
 */
/** Admins: the reclaim rounds still open or closed lately, with their figures (no names; the round message has them). */
function roundBlocks(rounds: readonly ReclaimRoundSummary[]): Block[] {
  if (rounds.length === 0) return [];
  return [
    divider(),
    section(
      `*Reclaim rounds* · ${rounds.length}\n${rounds
        .map((r) => {
          const { where, figures, state } = roundWords(r, 'in its round message');
          return `• ${where}: ${figures}. ${state}`;
        })
        .join('\n')}`,
    ),
  ];
}

function returnBlocks(progress: HomeProgress, titles: Map<string, string>): Block[] {
  if (progress.returnable.length === 0) return [];
  const more = progress.returnableTotal - progress.returnable.length;
  return [
    divider(),
    section(
      `*Finished courses: seats to give back* · ${progress.returnableTotal}\nThese holders completed their course in a transferable pool; returning the seat ends their access and frees it for someone else.`,
    ),
    ...progress.returnable.map((r) =>
      section(
        `*${escapeTruncated(r.studentName, 60)}* · ${escapeTruncated(titles.get(r.poolId) ?? `pool ${r.poolId}`, 60)} · completed ${dayText(r.completedAt)} · license \`${escapeMrkdwn(r.licenseId)}\``,
        button(DeskActionId.returnSeat, 'Return this seat', r.licenseId),
      ),
    ),
    ...(more > 0
      ? [context(`${count(more, 'more finished course')}: return them from \`/licenses show <licenseId>\`.`)]
      : []),
  ];
}

function recentBlocks(recent: AuditEntry[]): Block[] {
  const title = '*Recent changes*';
  if (recent.length === 0) return [section(`${title}\nNo changes recorded yet.`)];
  return [section(title), ...sectionsOf(recent.map(homeRecentLine))];
}

export function buildDashboardHomeView(input: HomeInput): HomeView {
  const { data, now } = input;
  const status = [
    input.sandbox ? SANDBOX_MARKER : undefined,
    data ? `Updated ${asOf(data.asOf)}` : undefined,
    input.refreshing ? ':hourglass_flowing_sand: Refreshing…' : undefined,
    input.note ? escapeTruncated(input.note, 300) : undefined,
  ].filter((s): s is string => s !== undefined);
  const top: Block[] = [
    header('License Desk'),
    ...(status.length > 0 ? [context(...status)] : []),
    ...(input.result ? [section(input.result)] : []),
    quickActions(input.canChange, input.canRequest !== false, input.progressPass === true),
    ...undeliveredBlocks(input),
  ];
  if (!data) {
    return { type: 'home', blocks: [...top, section(':hourglass_flowing_sand: Reading your pools and licenses…')] };
  }
  return {
    type: 'home',
    blocks: [
      ...top,
      divider(),
      ...poolBlocks(data, now, input.progress),
      ...(input.canChange && input.progress
        ? returnBlocks(input.progress, new Map(data.pools.map((p) => [p.id, p.course.title])))
        : []),
      ...(input.canChange && input.progress ? roundBlocks(input.rounds ?? []) : []),
      divider(),
      ...endingBlocks(data, now),
      divider(),
      ...recentBlocks(data.recent),
    ],
  };
}

/**
 * For people without a role: who to ask, and no data at all. `whoToAsk` is mrkdwn from the role
 * resolver. "Request a course" only for someone who may ask for one (`canRequest`). A guest can be
 * given neither a role nor a request, so they are told what they can do instead.
 */
export function buildRefusalHomeView(whoToAsk: string, sandbox: boolean, canRequest = false, guest = false): HomeView {
  const words = guest
    ? `:wave: License Desk shows course license pools and helps license managers assign seats. It is for full members of this workspace, so as a guest you can't use it or request a course here. If you need a seat in a course, send ${whoToAsk} a message with the course and your e-mail address: a license admin can assign you one.`
    : `:wave: License Desk shows course license pools and helps license managers assign seats. You don't have access yet: please ask ${whoToAsk} to add you.${canRequest ? ' You can ask for a seat in a course meanwhile.' : ''}`;
  return {
    type: 'home',
    blocks: [
      header('License Desk'),
      ...(sandbox ? [context(SANDBOX_MARKER)] : []),
      section(words),
      ...(canRequest ? [actions([button(RequestActionId.open, 'Request a course', 'request')], 'home_actions')] : []),
    ],
  };
}

/** When the role could not be told (Slack busy): one plain sentence, no data, and Refresh to try again. */
export function buildNoticeHomeView(sentence: string, sandbox: boolean): HomeView {
  return {
    type: 'home',
    blocks: [
      header('License Desk'),
      ...(sandbox ? [context(SANDBOX_MARKER)] : []),
      section(`:hourglass_flowing_sand: ${escapeMrkdwn(sentence)}`),
      actions([button(DeskActionId.homeRefresh, ':arrows_counterclockwise: Refresh', 'refresh')]),
    ],
  };
}
