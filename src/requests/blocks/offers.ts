/**
 * Seats offered from the waitlist in Block Kit (docs/leavers-and-offers.md#seats-offered-then-claimed): the requester's offer with Claim and
 * "I don't need it", the answer to either click, the DM when an offer lapsed, and the sentence an admin
 * who assigns by hand in a pool with seats on offer reads. Pure.
 */
import { OfferActionId } from '../../kernel/blocks/ids.js';
import { actions, button, context, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import type { ClaimOutcome, DeclineOutcome, HeldSeat, Offer, OfferState } from '../domain/offers.js';
import { whoOf } from './waitlist.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/**
 * A deadline as "Thursday 17:00 UTC" in the fallback, and in the reader's own time zone in Slack
 * ("Thursday, November 26th 2026 at 17:00"): clear whichever they read.
 */
export function deadlineWords(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return escapeTruncated(iso, 40);
  const fallback = `${WEEKDAYS[at.getUTCDay()]} ${iso.slice(8, 10)}/${iso.slice(5, 7)} ${iso.slice(11, 16)} UTC`;
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_long} at {time} (your time)|${fallback}>`;
}

/** The same deadline in plain text (a notification's `text`). */
export function deadlinePlain(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso.slice(0, 40);
  return `${WEEKDAYS[at.getUTCDay()]} ${iso.slice(11, 16)} UTC`;
}

const course = (o: Pick<Offer, 'courseTitle'>) => `*${escapeTruncated(o.courseTitle, 120)}*`;

export function buildOfferMessage(o: Offer): SlackMessage {
  const text = `A seat in ${escapeTruncated(o.courseTitle, 120)} is yours if you claim it by ${deadlinePlain(o.deadlineAt)}.`;
  return {
    text,
    blocks: [
      section(
        `:seat: A seat in ${course(o)} is yours if you claim it by ${deadlineWords(o.deadlineAt)}. You were first on the waitlist; the seat is held for you until then.`,
      ),
      actions([
        button(OfferActionId.claim, 'Claim', o.id, 'primary'),
        button(OfferActionId.decline, 'I don’t need it', o.id),
      ]),
      context('If you do not claim it by then, it goes to the next person on the waitlist.'),
    ],
  };
}

export function buildOfferExpiredMessage(o: Offer): SlackMessage {
  const t = `The seat in ${course(o)} held for you until ${deadlineWords(o.deadlineAt)} was not claimed, so it went to the next person on the waitlist and your request is closed. Ask for the course again if you still need it.`;
  return {
    text: `The seat offered in ${escapeTruncated(o.courseTitle, 120)} was not claimed in time.`,
    blocks: [section(t)],
  };
}

function movedOnWords(state: OfferState): string {
  switch (state) {
    case 'claimed':
    case 'claiming':
      return 'you claimed it already';
    case 'declined':
      return 'you passed it on';
    case 'expired':
      return 'its deadline passed and it went to the next in line';
    default:
      return 'it is no longer on offer';
  }
}

const plainMessage = (t: string): SlackMessage => ({ text: t.replace(/\*/g, ''), blocks: [section(t)] });

/** A click that changes nothing: someone else's offer, an unknown one, or one that moved on. */
function refusedClick(
  o: Extract<ClaimOutcome | DeclineOutcome, { kind: 'not-yours' | 'unknown-offer' | 'moved-on' }>,
): SlackMessage {
  if (o.kind === 'not-yours') return plainMessage('That seat was offered to someone else, so nothing changed.');
  if (o.kind === 'unknown-offer')
    return plainMessage('That offer is not known (the button may be from an old message), so nothing changed.');
  return plainMessage(
    `This offer of a seat in ${course(o)} has moved on (${movedOnWords(o.state)}), so your click changed nothing.`,
  );
}

export function buildClaimOutcomeMessage(o: ClaimOutcome): SlackMessage {
  switch (o.kind) {
    case 'claimed':
      return plainMessage(
        `:white_check_mark: You claimed the seat in ${course(o)}. It is assigned to you; the license follows in a message.`,
      );
    case 'pending':
      return plainMessage(
        `:hourglass: Your claim of the seat in ${course(o)} is being completed. You will get a message once it is assigned; no need to click again.`,
      );
    case 'not-yours':
    case 'unknown-offer':
    case 'moved-on':
      return refusedClick(o);
    case 'not-given':
      return plainMessage(
        o.keepsPlace
          ? `The seat in ${course(o)} could not be assigned just now (${escapeTruncated(o.why, 300)}). You keep your place first on the waitlist; nothing was assigned.`
          : `The seat in ${course(o)} could not be assigned to you (${escapeTruncated(o.why, 300)}), so it goes to the next in line.`,
      );
  }
}

export function buildDeclineOutcomeMessage(o: DeclineOutcome): SlackMessage {
  switch (o.kind) {
    case 'declined':
      return plainMessage(
        `Thanks for letting us know: the seat in ${course(o)} goes to the next person on the waitlist, and your request is closed.`,
      );
    case 'not-yours':
    case 'unknown-offer':
    case 'moved-on':
      return refusedClick(o);
  }
}

/** What an admin assigning by hand in a pool with seats on offer is told (mentions, deadlines). */
export function heldSeatsSentence(held: readonly HeldSeat[]): string | undefined {
  if (held.length === 0) return undefined;
  const who = held.map((h) => `${whoOf(h.requester)} (until ${deadlineWords(h.deadlineAt)})`).join(', ');
  const seats = held.length === 1 ? 'A seat of this pool is' : `${held.length} seats of this pool are`;
  return `:warning: ${seats} on offer from the waitlist to ${who} and held for them. A hand assign does not respect that hold: if it took the held seat, whoever claims finds the pool full and keeps their place first in line.`;
}
