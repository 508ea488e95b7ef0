/**
 * The waitlist as admins see it: `/licenses waitlist [poolId]` (an ephemeral message) and a section of
 * the App Home. One line per waiting request (place, requester, course, pool, waiting since) and, for
 * license admins, Move up, Move down and Remove (Remove behind Slack's confirmation). Pure.
 */

import { compact } from '../../kernel/blocks/common.js';
import { WaitlistActionId, waitlistEntryBlockId } from '../../kernel/blocks/ids.js';
import {
  type ActionsBlock,
  actions,
  type Block,
  type ButtonElement,
  button,
  context,
  header,
  mrkdwn,
  plain,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { dayText, escapeMrkdwn, escapeTruncated, slackMomentPretty } from '../../kernel/blocks/mrkdwn.js';
import { count } from '../../kernel/domain/count.js';
import type { WaitlistEntry } from '../domain/waitlist.js';

export type PlacedEntry = WaitlistEntry & { place: number };

/** Two blocks a request: a message holds 50, the Home tab 100 beside the dashboard. */
export const WAITLIST_MESSAGE_MAX = 20;
export const WAITLIST_HOME_MAX = 10;

/** What a waitlist button carries (as JSON in its value): the request, and the pool the list was filtered to. */
export interface WaitlistButtonValue {
  r: string;
  f?: string;
}

/** A Slack user as Slack renders one (a mention), or the escaped id when it is not a user id. */
export function whoOf(userId: string): string {
  return /^[UW][A-Z0-9]{2,20}$/.test(userId) ? `<@${userId}>` : escapeTruncated(userId, 40);
}

/** "today at 9:48 AM", "Nov 25, 2026 at 9:48 AM". */
function since(iso: string): string {
  return Number.isNaN(Date.parse(iso)) ? escapeTruncated(iso, 30) : slackMomentPretty(iso);
}

function entryLine(e: PlacedEntry): string {
  const course = e.courseTitle ? ` · *${escapeTruncated(e.courseTitle, 80)}*` : '';
  return `*${e.place}.* ${whoOf(e.requester)}${course} · pool \`${escapeMrkdwn(e.poolId)}\` · waiting since ${since(e.since)}`;
}

function entryButtons(e: PlacedEntry, last: boolean, filter: string | undefined): ActionsBlock {
  const value = JSON.stringify({ r: e.requestId, ...(filter ? { f: filter } : {}) } satisfies WaitlistButtonValue);
  const remove: ButtonElement = {
    ...button(WaitlistActionId.remove, 'Remove', value, 'danger'),
    confirm: {
      title: plain('Remove from the waitlist?'),
      text: mrkdwn(
        `${whoOf(e.requester)} loses place ${e.place} in the line for pool \`${escapeMrkdwn(e.poolId)}\` and gets no seat from it. Their request is not approved again by this.`,
      ),
      confirm: plain('Remove'),
      deny: plain('Keep'),
      style: 'danger',
    },
  };
  const els = [
    e.place > 1 ? button(WaitlistActionId.moveUp, 'Move up', value) : undefined,
    last ? undefined : button(WaitlistActionId.moveDown, 'Move down', value),
    remove,
  ].filter((b): b is ButtonElement => b !== undefined);
  return actions(els, waitlistEntryBlockId(e.requestId));
}

function entryBlocks(entries: readonly PlacedEntry[], max: number, canChange: boolean, filter?: string): Block[] {
  const shown = entries.slice(0, max);
  return shown.flatMap((e, i) => {
    const next = entries[i + 1];
    const last = next === undefined || next.poolId !== e.poolId;
    const line = section(entryLine(e));
    return canChange ? [line, entryButtons(e, last, filter)] : [line];
  });
}

function summary(entries: readonly PlacedEntry[]): string {
  const pools = new Set(entries.map((e) => e.poolId)).size;
  return `${count(entries.length, 'request')} waiting for ${count(pools, 'pool')}`;
}

export interface WaitlistMessageInput {
  entries: readonly PlacedEntry[];
  /** The pool the list was asked for, if any. */
  poolId?: string;
  /** License admins get the buttons. */
  canChange: boolean;
  /** One plain sentence above the list (e.g. what the last click did). */
  note?: string;
}

/** `/licenses waitlist [poolId]`. */
export function buildWaitlistMessage(input: WaitlistMessageInput): SlackMessage {
  const { entries, poolId } = input;
  const where = poolId ? ` for pool \`${escapeMrkdwn(poolId)}\`` : '';
  const note = input.note ? section(`:information_source: ${escapeTruncated(input.note, 500)}`) : undefined;
  if (entries.length === 0) {
    const text = `Nobody is on the waitlist${where}. Approved requests for a full pool wait here, first come first served, and get the next freed seat.`;
    return { text, blocks: compact([note, section(text)]) };
  }
  const more = entries.length - WAITLIST_MESSAGE_MAX;
  const text = `Waitlist${where}: ${summary(entries)}`;
  return {
    text,
    blocks: compact([
      note,
      header('Waitlist'),
      context(
        `${summary(entries)}. A freed seat goes to number 1 of its pool automatically.${input.canChange ? '' : ' Only license admins can reorder it.'}`,
      ),
      ...entryBlocks(entries, WAITLIST_MESSAGE_MAX, input.canChange, poolId),
      more > 0
        ? context(
            `${count(more, 'more request')}: \`/licenses waitlist <poolId>\` shows one pool's line${poolId ? ' (this one is cut)' : ''}.`,
          )
        : undefined,
    ]),
  };
}

/** The Home tab's waitlist section (license admins only), placed under the dashboard. */
export function buildWaitlistHomeSection(entries: readonly PlacedEntry[]): Block[] {
  const title = '*Waitlist*';
  if (entries.length === 0) return [section(`${title}\nNobody is waiting for a seat.`)];
  const more = entries.length - WAITLIST_HOME_MAX;
  return [
    section(`${title} · ${summary(entries)}`),
    ...entryBlocks(entries, WAITLIST_HOME_MAX, true),
    ...(more > 0 ? [context(`${count(more, 'more request')}: \`/licenses waitlist\` lists them all.`)] : []),
  ];
}

const courseOf = (e: WaitlistEntry) =>
  `${e.courseTitle ? `*${escapeTruncated(e.courseTitle, 120)}* ` : ''}(pool \`${escapeMrkdwn(e.poolId)}\`)`;

/** A waitlisted request got a freed seat: told to the requester, and to the approver (or the admins). */
export function buildWaitlistSeatMessage(input: {
  entry: WaitlistEntry;
  licenseId: string;
  endDate?: string;
  to: 'requester' | 'approver';
}): SlackMessage {
  const { entry } = input;
  const license = `license \`${escapeMrkdwn(input.licenseId)}\``;
  const ends = input.endDate ? `, until ${dayText(input.endDate) || escapeTruncated(input.endDate, 10)}` : '';
  const text =
    input.to === 'requester'
      ? `:white_check_mark: A seat freed up and it is yours: ${courseOf(entry)}, ${license}${ends}. Your approved request was on the waitlist; nothing more to do.`
      : `:white_check_mark: ${whoOf(entry.requester)} got a freed seat from the waitlist: ${courseOf(entry)}, ${license}${ends}.`;
  return { text, blocks: [section(text)] };
}

/**
 * A waitlisted request could not take the freed seat and left the line: why, and who is next (the
 * approvers' copy), or what to do (the requester's).
 */
export function buildWaitlistSkippedMessage(input: {
  entry: WaitlistEntry;
  reason: string;
  next: WaitlistEntry | undefined;
  to: 'requester' | 'approver';
  /** The pool has ended: no seat was freed, and nobody in line can get one. */
  poolEnded?: boolean;
}): SlackMessage {
  const { entry } = input;
  const why = escapeTruncated(input.reason, 500);
  if (input.poolEnded) {
    const pool = `Pool \`${escapeMrkdwn(entry.poolId)}\`${entry.courseTitle ? ` (*${escapeTruncated(entry.courseTitle, 120)}*)` : ''}`;
    const ended =
      input.to === 'requester'
        ? `:x: ${pool} has ended, so no seat will free up in it: your request has left the waitlist. Ask a license admin if you still need the course.`
        : `:x: ${pool} has ended, so no seat will free up in it for anybody: the request of ${whoOf(entry.requester)} has left the waitlist.`;
    return { text: ended, blocks: [section(ended)] };
  }
  const text =
    input.to === 'requester'
      ? `:x: A seat freed up in ${courseOf(entry)}, but it could not be assigned to you: ${why}. Your request has left the waitlist; ask a license admin if you still need the course.`
      : `:x: ${whoOf(entry.requester)} could not take the freed seat in ${courseOf(entry)} and left the waitlist: ${why}. ${
          input.next
            ? `The seat goes to the next in line, ${whoOf(input.next.requester)}.`
            : 'Nobody else is waiting; the seat stays free.'
        }`;
  return { text, blocks: [section(text)] };
}
