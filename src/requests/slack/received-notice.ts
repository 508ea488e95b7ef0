/**
 * A new request's messages (RequestNotices.received): the approvers' cards (REQUESTS_CHANNEL, else
 * by DM to whom the approvers feature routes the pool's card), then the requester's "received" DM. A request made shortly after the same
 * person cancelled one takes over that request's messages (FOLD_MS): its card copies are edited in
 * place, and so is its DM, instead of posting more. The copies are saved on the request, so a
 * decision updates each of them.
 */
import { cardTargets, withLine } from '../../approvers/index.js';
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import { noticeParts, openDm } from '../../kernel/slack/notices.js';
import { buildRequestCardMessage, buildRequestUpdateMessage } from '../blocks/requests.js';
import type { CourseRequest, RequestCard } from '../domain/requests.js';
import type { Sender } from './notice-sender.js';

/**
 * A request made within this time after the same person cancelled one takes over that request's
 * messages: a request → cancel loop edits one card per approver and one DM, instead of posting more.
 */
export const FOLD_MS = 10 * 60_000;

export async function sendReceived(
  s: Sender,
  r: CourseRequest,
  facts: { freeSeats: number },
  steps?: NoticeSteps,
): Promise<void> {
  const parts = noticeParts(steps);
  const { store } = s.requests;
  // Folded: a request following one the same person cancelled a moment ago takes over that
  // request's messages (its card copies and the requester's "received" DM) instead of new ones.
  const previous = await justCancelled(s, r);
  const { cards, reused } = await postCards(s, r, facts, previous, parts);
  // Last: once the requester hears of it, the cards are saved and a decision updates every copy.
  const received = s.marked(buildRequestUpdateMessage(r));
  const oldDm = previous?.requesterDm;
  const dmTs = oldDm ? await s.replaced(oldDm, received) : undefined;
  await store.update(r.id, (x) => {
    // The copies posted on an earlier try stay; this try's are added.
    x.cards = [...x.cards, ...cards.filter((c) => !x.cards.some((k) => k.channel === c.channel))];
    if (oldDm && dmTs) x.requesterDm = oldDm;
  });
  if (previous && (reused.size > 0 || dmTs)) {
    await store.update(previous.id, (x) => {
      x.cards = x.cards.filter((c) => !reused.has(c.ts));
      if (dmTs) delete x.requesterDm;
    });
  }
  if (!dmTs) {
    await parts.send('dm', async () => {
      const sent = await s.dm(r.requester, buildRequestUpdateMessage(r));
      if (sent) {
        await store.update(r.id, (x) => {
          x.requesterDm = sent;
        });
      }
    });
  }
  parts.settle();
}

/** The requester's newest request cancelled within FOLD_MS, whose messages a new request takes over. */
async function justCancelled(s: Sender, r: CourseRequest): Promise<CourseRequest | undefined> {
  const since = s.deps.now().getTime() - FOLD_MS;
  return (await s.requests.store.byRequester(r.requester))
    .filter((x) => x.id !== r.id && x.status === 'cancelled' && Date.parse(x.decidedAt ?? '') > since)
    .sort((a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? ''))[0];
}

/** The card copies posted (or taken over from `previous`); `reused`: the ts of those taken over. */
async function postCards(
  s: Sender,
  r: CourseRequest,
  facts: { freeSeats: number },
  previous: CourseRequest | undefined,
  parts: ReturnType<typeof noticeParts>,
): Promise<{ cards: RequestCard[]; reused: Set<string> }> {
  const card = s.marked(buildRequestCardMessage({ request: r, freeSeats: facts.freeSeats, now: s.deps.now() }));
  const cards: RequestCard[] = [];
  const reused = new Set<string>();
  // The pool's approvers, a delegate for one who is away, the owners when the pool has none.
  const targets = await cardTargets(s.client, s.deps, s.requests.channel, r.poolId, { request: r.id }, r.requester);
  for (const { target, line } of targets) {
    await parts.send(`card:${target}`, async () => {
      const channel = s.requests.channel ? target : await openDm(s.client, target);
      // Posted on an earlier try (the process stopped before the outbox recorded it): not twice.
      if (r.cards.some((c) => c.channel === channel)) return;
      const old = previous?.cards.find((c) => c.channel === channel);
      const copy = withLine(card, line);
      const ts = (old && (await s.replaced(old, copy))) || (await s.client.chat.postMessage({ channel, ...copy })).ts;
      if (ts) cards.push({ channel, ts });
      if (old && ts === old.ts) reused.add(old.ts);
    });
  }
  return { cards, reused };
}
