/**
 * The weekly digest in words and charts (docs/digest.md). Two charts (`data_visualization`, messages
 * only): seats used over time in one pool with its forecast (a line chart), and how the holders'
 * progress is spread per course (a bar chart). Every number a chart shows is also said in a section, so
 * the message without its charts (a workspace that refuses the block) says the same.
 *
 * A channel post is built without names (`names: false`): counts only, and a "Show holders" button that
 * answers an admin or viewer privately. `/licenses digest` answers the asker only, with names.
 */

import { DeskActionId } from '../../kernel/blocks/ids.js';
import {
  actions,
  type Block,
  button,
  type ChartMessage,
  context,
  type DataVisualizationBlock,
  divider,
  header,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMoment } from '../../kernel/blocks/mrkdwn.js';
import {
  DIGEST_LISTED,
  type Digest,
  type DigestHolder,
  type DigestList,
  type PoolDigest,
  type ProgressSpread,
  SPREAD_BUCKETS,
} from '../domain/digest.js';
import type { Forecast } from '../domain/forecast.js';

/** Courses with a section of their own; the rest are named in one line. */
export const DIGEST_COURSES = 12;
/** Pools named in a course's section. */
const POOLS_PER_COURSE = 4;
/** Pools listed as ending soon. */
const ENDING_LISTED = 8;
/** Holders named per list in the private answers: at most this many, fewer when the text would be too long. */
export const HOLDERS_LISTED = DIGEST_LISTED;
/** Text a digest message may hold in its blocks, under LIMITS.totalBlockText with room for the marker. */
const TEXT_BUDGET = 11_000;
/** Series of the progress chart: the courses with most holders, the rest as one. */
const SPREAD_SERIES = 4;
export const CHART_TITLE_MAX = 50;

export const SPREAD_LABELS: Record<keyof ProgressSpread, string> = {
  zero: '0 %',
  low: '1–49 %',
  high: '50–99 %',
  completed: 'Completed',
};

const n = (v: number) => v.toLocaleString('en-US');
const plural = (v: number, one: string, many = `${one}s`) => `${n(v)} ${v === 1 ? one : many}`;
/** Built at first use, not at load (start-up; see dayText). */
let shortDayFormat: Intl.DateTimeFormat | undefined;
const shortDayFormatter = () =>
  (shortDayFormat ??= new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'short', day: 'numeric' }));
const shortDay = (day: string) => shortDayFormatter().format(Date.parse(`${day}T00:00:00Z`));
const dayOf = (day: string) => dayText(`${day}T00:00:00Z`);

/** "about 3 weeks", "4 days", "about 2 months". */
export function aboutDays(days: number): string {
  if (days < 14) return plural(days, 'day');
  if (days < 60) return `about ${plural(Math.round(days / 7), 'week')}`;
  return `about ${plural(Math.round(days / 30), 'month')}`;
}

/** One pool's forecast in words (mrkdwn, pool id escaped). */
export function forecastWords(poolId: string, f: Forecast): string {
  const pool = `pool ${escapeMrkdwn(poolId)}`;
  switch (f.kind) {
    case 'full':
      return `${pool} is full`;
    case 'too-little-history':
      return `${pool}: not enough history for a forecast yet (${plural(f.days, 'day')} recorded)`;
    case 'no-new-seats':
      return `${pool}: no new seats taken in ${n(f.overDays)} days`;
    case 'fills':
      return `at the last ${n(f.overDays)} days' rate, ${pool} is full in ${aboutDays(f.daysToFull)} (${dayOf(f.fullOn)})`;
    case 'ends-first':
      return `at the last ${n(f.overDays)} days' rate, ${pool} won't fill before it ends on ${dayOf(f.endsOn)}`;
  }
}

function spreadWords(s: ProgressSpread): string {
  return `${n(s.zero)} at 0 %, ${n(s.low)} at 1–49 %, ${n(s.high)} at 50–99 %, ${n(s.completed)} completed`;
}

function title(text: string): string {
  return Array.from(text).length <= CHART_TITLE_MAX
    ? text
    : `${Array.from(text)
        .slice(0, CHART_TITLE_MAX - 1)
        .join('')}…`;
}

/**
 * The seats chart's title: the course named, then the pool and its size, "Mastering DAX (pool 2001), 20
 * seats"; the course title is cut to fit the title's limit, never the pool or its size.
 */
export function seatsChartTitle(pool: Pick<PoolDigest, 'poolId' | 'licenses'>, courseTitle: string): string {
  const tail = ` (pool ${pool.poolId}), ${plural(pool.licenses, 'seat')}`;
  const room = CHART_TITLE_MAX - Array.from(tail).length;
  const course = Array.from(courseTitle.trim());
  if (course.length === 0 || room < 4) return title(`Pool ${pool.poolId}, ${plural(pool.licenses, 'seat')}`);
  const shown = course.length <= room ? course.join('') : `${course.slice(0, room - 1).join('')}…`;
  return `${shown}${tail}`;
}

/** A chart's x axis holds at most this many categories (Slack's limit, blocks/limits.ts). */
export const CHART_CATEGORIES = 20;
/** A chart's series name holds at most this many characters (Slack's limit). */
export const SERIES_NAME_MAX = 20;

/** A series name within Slack's 20 characters, cut with an ellipsis, and unlike the names before it. */
function seriesNames(names: readonly string[]): string[] {
  const out: string[] = [];
  for (const name of names) {
    const chars = Array.from(name);
    let cut = chars.length <= SERIES_NAME_MAX ? name : `${chars.slice(0, SERIES_NAME_MAX - 1).join('')}…`;
    for (let k = 2; out.includes(cut); k++) {
      const tag = ` (${k})`;
      cut = `${Array.from(cut)
        .slice(0, SERIES_NAME_MAX - tag.length - 1)
        .join('')}…${tag}`;
    }
    out.push(cut);
  }
  return out;
}

/**
 * Seats used over the last 30 days in the chart's pool, and the forecast from today: a line chart.
 * Slack wants a value of every series for every day on the axis and at most 20 days, so the days are
 * the recorded ones and the foreseen ones (the oldest recorded dropped past 20), and the two series
 * are the seats used (recorded up to today, then foreseen: "used, then forecast") and the pool's seats.
 */
export function seatsChart(pool: PoolDigest, courseTitle = ''): DataVisualizationBlock {
  const today = pool.lines.used.at(-1)?.day;
  const ahead = pool.lines.forecast.filter((p) => today === undefined || p.day > today);
  const past = pool.lines.used.slice(-Math.max(1, CHART_CATEGORIES - ahead.length));
  const points = [...past, ...ahead].slice(0, CHART_CATEGORIES);
  const span = points.length > 1 ? Date.parse(points.at(-1)?.day ?? '') - Date.parse(points[0]?.day ?? '') : 0;
  // Across most of a year the same month and day could come twice: the year tells them apart.
  const label = (day: string) => (span > 300 * 86_400_000 ? `${shortDay(day)}, ${day.slice(0, 4)}` : shortDay(day));
  const categories = points.map((p) => label(p.day));
  const [usedName, poolName] = seriesNames([ahead.length > 0 ? 'used, then forecast' : 'used', 'seats in pool']);
  return {
    type: 'data_visualization',
    block_id: 'digest_chart_seats',
    title: seatsChartTitle(pool, courseTitle),
    chart: {
      type: 'line',
      series: [
        { name: usedName ?? 'used', data: points.map((p, i) => ({ label: categories[i] ?? '', value: p.assigned })) },
        { name: poolName ?? 'seats in pool', data: categories.map((c) => ({ label: c, value: pool.licenses })) },
      ],
      axis_config: { categories, x_label: 'Day', y_label: 'Seats used' },
    },
  };
}

/** The series of the progress chart: the courses with most holders, the others summed as one. */
export function spreadSeries(d: Digest): { name: string; spread: ProgressSpread }[] {
  const holders = (s: ProgressSpread) => s.zero + s.low + s.high + s.completed;
  const courses = [...d.courses]
    .filter((c) => holders(c.spread) > 0)
    .sort((a, b) => holders(b.spread) - holders(a.spread));
  if (courses.length <= SPREAD_SERIES) return courses.map((c) => ({ name: c.title, spread: c.spread }));
  const shown = courses.slice(0, SPREAD_SERIES - 1).map((c) => ({ name: c.title, spread: c.spread }));
  const rest = { zero: 0, low: 0, high: 0, completed: 0 };
  for (const c of courses.slice(SPREAD_SERIES - 1)) for (const k of SPREAD_BUCKETS) rest[k] += c.spread[k];
  return [...shown, { name: `${n(courses.length - SPREAD_SERIES + 1)} other courses`, spread: rest }];
}

export function spreadChart(d: Digest): DataVisualizationBlock {
  const categories = SPREAD_BUCKETS.map((k) => SPREAD_LABELS[k]);
  const series = spreadSeries(d);
  // Slack's 20 characters a series name: a long course title is cut (the words beside say it whole).
  const names = seriesNames(series.map((s) => s.name));
  return {
    type: 'data_visualization',
    block_id: 'digest_chart_progress',
    title: 'Holders by progress, per course',
    chart: {
      type: 'bar',
      series: series.map((s, i) => ({
        name: names[i] ?? s.name,
        data: SPREAD_BUCKETS.map((k) => ({ label: SPREAD_LABELS[k], value: s.spread[k] })),
      })),
      axis_config: { categories, x_label: 'Progress', y_label: 'Holders' },
    },
  };
}

function poolLine(p: PoolDigest): string {
  return `\`${escapeMrkdwn(p.poolId)}\` ${n(p.used)}/${n(p.licenses)} used: ${forecastWords(p.poolId, p.forecast)}`;
}

function holderLine(h: DigestHolder): string {
  return `• ${escapeTruncated(h.name || h.email, 60)} (${escapeTruncated(h.email, 80)}), ${escapeTruncated(h.courseTitle, 60)}, pool \`${escapeMrkdwn(h.poolId)}\`, ${n(h.progress)} %`;
}

/**
 * A list of holders as sections of at most ~2,900 characters, at most `max` names (of those the
 * digest holds, its first ones), then how many more there are of its total.
 */
function holderSections(heading: string, list: DigestList, max: number): Block[] {
  if (list.total === 0) return [section(`*${heading}:* none.`)];
  const shown = list.listed.slice(0, max);
  const lines = shown.map(holderLine);
  if (list.total > shown.length) lines.push(`…and ${n(list.total - shown.length)} more.`);
  const out: Block[] = [];
  let text = `*${heading} (${n(list.total)}):*`;
  for (const line of lines) {
    if (text.length + line.length + 1 > 2900) {
      out.push(section(text));
      text = line;
    } else text += `\n${line}`;
  }
  out.push(section(text));
  return out;
}

export interface DigestMessageOptions {
  /** Names and e-mails of holders (private answers only). */
  names: boolean;
  /** The "Show holders" button (the channel post). */
  showHolders: boolean;
  /** Whether the week's takeaway is for the scheduled post ("This week") or asked now. */
  scheduled?: boolean;
}

/** The takeaway in one line: the top-level `text` (notification, screen readers, no-chart fallback). */
export function digestTakeaway(d: Digest): string {
  const t = d.totals;
  const chart = d.courses.flatMap((c) => c.pools).find((p) => p.poolId === d.chartPoolId);
  const soonest =
    chart && chart.forecast.kind === 'fills' ? ` Soonest to fill: ${forecastWords(chart.poolId, chart.forecast)}.` : '';
  return (
    `License digest: ${n(t.used)} of ${n(t.licenses)} seats used in ${plural(t.pools, 'pool')} (${n(t.free)} free); ` +
    `${plural(t.completedThisWeek, 'completion')} this week; ${n(t.stalled)} stalled, ${n(t.notStarted)} not started.${soonest}`
  );
}

/** Characters of text in the blocks (what Slack's msg_blocks_too_long counts, roughly). */
export function blockText(blocks: readonly (Block | DataVisualizationBlock)[]): number {
  let total = 0;
  for (const b of blocks) {
    if (b.type === 'section' || b.type === 'header') total += Array.from(b.text?.text ?? '').length;
    if (b.type === 'context') for (const e of b.elements) total += Array.from(e.text).length;
  }
  return total;
}

/**
 * The digest: up to DIGEST_COURSES course sections and, with names, up to HOLDERS_LISTED names a list;
 * fewer of both while the text would pass the budget (a long digest never breaks the message).
 */
export function buildDigestMessage(d: Digest, opts: DigestMessageOptions): ChartMessage {
  let courses = DIGEST_COURSES;
  let listed = opts.names ? 10 : 0;
  for (;;) {
    const message = buildDigestWith(d, opts, courses, listed);
    if (blockText(message.blocks) <= TEXT_BUDGET || (courses <= 1 && listed <= 1)) return message;
    if (listed > 3) listed = Math.max(3, listed - 2);
    else if (courses > 1) courses--;
    else listed--;
  }
}

function buildDigestWith(d: Digest, opts: DigestMessageOptions, courseLimit: number, listed: number): ChartMessage {
  const t = d.totals;
  const blocks: (Block | DataVisualizationBlock)[] = [
    header(opts.scheduled ? 'Weekly license digest' : 'License digest'),
  ];
  if (d.courses.length === 0) {
    const text = 'License digest: no running pools.';
    return { text, blocks: [...blocks, section('No running pools: nothing to report this week.')] };
  }
  blocks.push(
    section(
      `*${n(t.used)} of ${n(t.licenses)} seats used* in ${plural(t.pools, 'pool')} of ${plural(d.courses.length, 'course')}, ${n(t.free)} free.\n` +
        `This week: ${plural(t.completedThisWeek, 'completion')}. Holders: ${n(t.holders)}; ${n(t.stalled)} stalled, ${n(t.notStarted)} not started` +
        (t.completedTransferable > 0
          ? `; ${n(t.completedTransferable)} completed in transferable pools (those seats could be given again).`
          : '.'),
    ),
  );
  const chartPool = d.courses.flatMap((c) => c.pools).find((p) => p.poolId === d.chartPoolId);
  if (chartPool) {
    const chartCourse = d.courses.find((c) => c.courseId === chartPool.courseId)?.title ?? '';
    blocks.push(seatsChart(chartPool, chartCourse));
    const past = chartPool.lines.used;
    const from = past[0];
    blocks.push(
      context(
        `Pool ${escapeMrkdwn(chartPool.poolId)}: ${n(chartPool.used)} of ${n(chartPool.licenses)} seats used` +
          (from && past.length > 1 ? ` (${n(from.assigned)} on ${dayOf(from.day)})` : '') +
          `; ${forecastWords(chartPool.poolId, chartPool.forecast)}.`,
      ),
    );
  }
  const series = spreadSeries(d);
  if (series.length > 0) {
    blocks.push(spreadChart(d));
    blocks.push(
      context(`Progress: ${series.map((s) => `${escapeTruncated(s.name, 60)}: ${spreadWords(s.spread)}`).join('; ')}.`),
    );
  }
  blocks.push(divider());
  for (const c of d.courses.slice(0, courseLimit)) {
    const pools = c.pools.slice(0, POOLS_PER_COURSE).map(poolLine);
    if (c.pools.length > POOLS_PER_COURSE) pools.push(`…and ${plural(c.pools.length - POOLS_PER_COURSE, 'more pool')}`);
    blocks.push(
      section(
        `*${escapeTruncated(c.title, 120)}*: ${n(c.used)} of ${n(c.licenses)} seats used, ${n(c.free)} free\n` +
          `Progress: ${spreadWords(c.spread)}; ${plural(c.completedThisWeek, 'completion')} this week\n` +
          `${n(c.stalled)} stalled, ${n(c.notStarted)} not started` +
          (c.completedTransferable > 0 ? `, ${n(c.completedTransferable)} completed in transferable pools` : '') +
          `\n${pools.join('\n')}`,
      ),
    );
  }
  if (d.courses.length > courseLimit) {
    const rest = d.courses.slice(courseLimit);
    const used = rest.reduce((a, c) => a + c.used, 0);
    const licenses = rest.reduce((a, c) => a + c.licenses, 0);
    blocks.push(context(`…and ${plural(rest.length, 'more course')}: ${n(used)} of ${n(licenses)} seats used.`));
  }
  if (d.endingSoon.length > 0) {
    const lines = d.endingSoon.slice(0, ENDING_LISTED).map((p) => {
      const course = d.courses.find((c) => c.courseId === p.courseId)?.title ?? p.courseId;
      const holders = p.spread.zero + p.spread.low + p.spread.high + p.spread.completed;
      return (
        `• Pool \`${escapeMrkdwn(p.poolId)}\` (${escapeTruncated(course, 60)}) ends on ${dayText(p.end)} (in ${plural(p.endsInDays ?? 0, 'day')}): ` +
        `${plural(holders, 'holder')}, ${spreadWords(p.spread)}`
      );
    });
    if (d.endingSoon.length > ENDING_LISTED)
      lines.push(`…and ${plural(d.endingSoon.length - ENDING_LISTED, 'more pool')}`);
    blocks.push(section(`*Pools ending within ${n(d.endingWithinDays)} days:*\n${lines.join('\n')}`));
  }
  if (opts.names && d.names) blocks.push(divider(), ...holderListBlocks(d, listed));
  if (opts.showHolders) {
    blocks.push(actions([button(DeskActionId.digestShowHolders, 'Show holders', 'digest')], 'digest_actions'));
  }
  blocks.push(
    context(
      `Counted ${slackMoment(d.at)}. Stalled: no progress seen for ${n(d.thresholds.stalledDays)} days; not started: 0 % ${n(d.thresholds.notStartedDays)} days after the start. Forecasts: net seats assigned per day over the last 30 days.`,
    ),
  );
  return { text: digestTakeaway(d), blocks };
}

function holderListBlocks(d: Digest, max: number): Block[] {
  const names = d.names;
  if (!names) return [];
  return [
    ...holderSections('Stalled', names.stalled, max),
    ...holderSections('Not started', names.notStarted, max),
    ...holderSections('Completed in transferable pools', names.completedTransferable, max),
    ...holderSections(`In pools ending within ${n(d.endingWithinDays)} days, not completed`, names.endingSoon, max),
  ];
}

/** "Show holders": the names behind the digest's counts, for the one who clicked (ephemeral). */
export function buildDigestHoldersMessage(d: Digest): SlackMessage {
  let max = HOLDERS_LISTED;
  let blocks: Block[] = [header('Holders behind the digest'), ...holderListBlocks(d, max)];
  while (max > 1 && blockText(blocks) > TEXT_BUDGET) {
    max--;
    blocks = [header('Holders behind the digest'), ...holderListBlocks(d, max)];
  }
  const names = d.names;
  const text = names
    ? `Holders: ${n(names.stalled.total)} stalled, ${n(names.notStarted.total)} not started, ${n(names.completedTransferable.total)} completed in transferable pools, ${n(names.endingSoon.total)} in pools ending soon.`
    : 'No holders to show.';
  return { text, blocks: blocks.slice(0, 49) };
}

/** The same message without its charts: for a workspace that refuses the chart block. */
export function withoutCharts(message: ChartMessage): SlackMessage {
  return { text: message.text, blocks: message.blocks.filter((b): b is Block => b.type !== 'data_visualization') };
}
