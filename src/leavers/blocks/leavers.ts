/**
 * Leavers in Block Kit (docs/leavers-and-offers.md#leavers): the alert channel's posts (a leaver's seats on hold, a hold
 * cancelled, the seats returned after the grace) and App Home's section for license admins. The
 * channel names a leaver by their Slack mention only and each seat by course, pool and license id:
 * never a name or an e-mail. App Home, seen by one license admin, shows the e-mail too.
 */
import { sectionsOf } from '../../home/index.js';
import { type Block, context, divider, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { dayText, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { HeldSeat, LeaverNotice, ListedHold } from '../domain/leavers.js';

const USER_ID = /^[UW][A-Z0-9]{2,20}$/;

const who = (slackUser: string | undefined) =>
  slackUser && USER_ID.test(slackUser) ? `<@${slackUser}>` : 'A holder no longer found in Slack';

const seatText = (s: HeldSeat) => {
  const pool = `pool \`${escapeTruncated(s.poolId, 64)}\``;
  const course = s.courseTitle ? `*${escapeTruncated(s.courseTitle, 80)}* (${pool})` : pool;
  return `${course}, license \`${escapeTruncated(s.licenseId, 64)}\``;
};

/** At most this many seats named in one post; the rest counted. */
const MAX_NAMED = 30;

function seatLines(seats: readonly HeldSeat[], tail: (s: HeldSeat) => string): string[] {
  const lines = seats.slice(0, MAX_NAMED).map((s) => `• ${seatText(s)}${tail(s)}`);
  if (seats.length > MAX_NAMED) lines.push(`• and ${seats.length - MAX_NAMED} more`);
  return lines;
}

const plain = (text: string, max = 600) => escapeTruncated(text.replace(/[`*•]/g, ''), max);

export function buildLeaverHeldPost(n: Extract<LeaverNotice, { kind: 'leaver-held' }>): SlackMessage {
  const due = dayText(n.due) || n.due.slice(0, 10);
  const count = `${n.seats.length} seat${n.seats.length === 1 ? '' : 's'}`;
  const how = n.bySweep ? ' (found by the weekly sweep)' : '';
  const head = `${who(n.slackUser)} left the workspace${how}: their ${count} ${n.seats.length === 1 ? 'is' : 'are'} on hold until ${due}.`;
  const lines = seatLines(n.seats, (s) =>
    s.transferable ? `: returned on ${due} unless they come back` : ': untransferable pool, only listed (not returned)',
  );
  return {
    text: plain(head),
    blocks: [
      section(`:wave: ${head}`),
      ...sectionsOf(lines),
      context(
        'A reactivation before then cancels the hold. LEAVER_GRACE_DAYS sets the grace (docs/leavers-and-offers.md#leavers).',
      ),
    ],
  };
}

export function buildLeaverCancelledPost(n: Extract<LeaverNotice, { kind: 'leaver-cancelled' }>): SlackMessage {
  const count = `${n.seats} seat${n.seats === 1 ? '' : 's'}`;
  const t = `${who(n.slackUser)} is back in the workspace: the hold on their ${count} is cancelled and nothing is returned.`;
  return { text: plain(t), blocks: [section(`:leftwards_arrow_with_hook: ${t}`)] };
}

export function buildLeaverReturnsPost(n: Extract<LeaverNotice, { kind: 'leaver-returns' }>): SlackMessage {
  const blocks: Block[] = [];
  const parts: string[] = [];
  if (n.returned.length > 0) {
    const head = `Returned ${n.returned.length} seat${n.returned.length === 1 ? '' : 's'} of leavers after the grace:`;
    parts.push(head);
    blocks.push(section(`:recycle: ${head}`), ...sectionsOf(seatLines(n.returned, () => '')));
  }
  if (n.listed.length > 0) {
    const head = `${n.listed.length} seat${n.listed.length === 1 ? '' : 's'} of leavers in untransferable pools, only listed (a revoke would not give the seat back):`;
    parts.push(head);
    blocks.push(section(`:pushpin: ${head}`), ...sectionsOf(seatLines(n.listed, () => '')));
  }
  if (n.failed.length > 0) {
    const head = `${n.failed.length} return${n.failed.length === 1 ? '' : 's'} did not go through; the seats stay taken:`;
    parts.push(head);
    blocks.push(section(`:warning: ${head}`), ...sectionsOf(seatLines(n.failed, () => '')));
  }
  blocks.push(context('Each return is in `/licenses history` as "returned: left the workspace".'));
  return { text: plain(parts.join(' ')), blocks };
}

/** App Home, license admins: the leavers' seats on hold and those only listed. */
export function buildLeaversHomeSection(input: { holds: ListedHold[]; total: number }): Block[] {
  if (input.holds.length === 0) return [];
  const lines = input.holds.map((h) => {
    const person = h.slackUser && USER_ID.test(h.slackUser) ? `<@${h.slackUser}>` : escapeTruncated(h.email, 254);
    const when =
      h.state === 'listed'
        ? 'untransferable pool: only listed, revoke it by hand if it should end'
        : h.transferable
          ? `returned on ${dayText(h.due) || h.due.slice(0, 10)} unless they come back`
          : `untransferable pool: only listed after ${dayText(h.due) || h.due.slice(0, 10)}`;
    return `• ${person}: ${seatText(h)}, ${when}`;
  });
  const more = input.total - input.holds.length;
  return [
    divider(),
    section(`*Leavers’ seats* (${input.total})`),
    ...sectionsOf(lines),
    ...(more > 0 ? [context(`And ${more} more.`)] : []),
  ];
}
