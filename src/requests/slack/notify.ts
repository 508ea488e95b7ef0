/**
 * RequestEvents over Slack: the approvers' cards (REQUESTS_CHANNEL, else each license admin's DM),
 * their updates on every copy, reminders as thread replies, the requester's DMs, and the Workflow
 * Builder step's completion. A waitlisted request that gets its seat (or cannot take it) hears it from
 * the waitlist's DMs (src/requests/slack/waitlist/notices.ts); here its cards and its step follow. Uses the
 * app's own bot client (composeRequests runs once createApp has built it): a step's
 * workflow token expires 15 minutes after the step starts (docs/course-requests.md), and a decision
 * may come days later. Sent by the outbox: every part (a card copy, a thread reply, a DM, the step's
 * completion) is tried, each once across tries (`steps`), and a failed part throws after the others,
 * so the outbox tries the notice again later and sends only what is left.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { noticeParts, openDm } from '../../kernel/slack/notices.js';
import { buildRequestCardMessage, buildRequestReminderMessage, buildRequestUpdateMessage } from '../blocks/requests.js';
import { type CourseRequest, type RequestCard, waitingSince } from '../domain/requests.js';
import type { RequestEvents } from '../services/service.js';
import type { RequestsDeps } from './deps.js';

/** The outputs of the Workflow Builder step (manifest.yml functions.request_course_license). */
export function workflowOutputs(r: CourseRequest): Record<string, string> | undefined {
  const status =
    r.status === 'assigned'
      ? 'approved'
      : r.status === 'denied' || r.status === 'waitlisted' || r.status === 'expired'
        ? r.status
        : undefined;
  if (!status) return undefined;
  return {
    status,
    ...(r.licenseId ? { license_id: r.licenseId } : {}),
    ...(r.endDate ? { end_date: r.endDate.slice(0, 10) } : {}),
  };
}

/**
 * A request made within this time after the same person cancelled one takes over that request's
 * messages: a request → cancel loop edits one card per approver and one DM, instead of posting more.
 */
export const FOLD_MS = 10 * 60_000;

type Parts = ReturnType<typeof noticeParts>;

export function createRequestEvents(
  client: webApi.WebClient,
  deps: Pick<AppDeps, 'logger' | 'sandbox' | 'roles' | 'now'>,
  requests: Pick<RequestsDeps, 'store' | 'channel' | 'timers'>,
): RequestEvents {
  const { logger } = deps;
  const marked = (m: SlackMessage) => withSandboxMarker(m, deps.sandbox);

  /** Sends a DM; where it went (undefined: Slack gave no ts). Throws when Slack did not take it. */
  async function dm(user: string, message: SlackMessage): Promise<RequestCard | undefined> {
    const channel = await openDm(client, user);
    const res = await client.chat.postMessage({ channel, ...marked(message) });
    return res.ts ? { channel, ts: res.ts } : undefined;
  }

  /** The requester's newest request cancelled within FOLD_MS, whose messages a new request takes over. */
  async function justCancelled(r: CourseRequest): Promise<CourseRequest | undefined> {
    const since = deps.now().getTime() - FOLD_MS;
    return (await requests.store.byRequester(r.requester))
      .filter((x) => x.id !== r.id && x.status === 'cancelled' && Date.parse(x.decidedAt ?? '') > since)
      .sort((a, b) => (b.decidedAt ?? '').localeCompare(a.decidedAt ?? ''))[0];
  }

  /** Rewrites a message in place (no new notification); its ts, or undefined when Slack refused. */
  async function replaced(where: RequestCard, message: SlackMessage): Promise<string | undefined> {
    try {
      await client.chat.update({ channel: where.channel, ts: where.ts, ...message });
      return where.ts;
    } catch (error) {
      logger.warn('could not reuse a course request message', { channel: where.channel, error: String(error) });
      return undefined;
    }
  }

  /** When an undecided (or approved, seatless) request expires. */
  const expiresAt = (r: CourseRequest) =>
    new Date(Date.parse(waitingSince(r)) + requests.timers.expireAfterMs).toISOString();

  async function updateCards(r: CourseRequest, parts: Parts): Promise<void> {
    const message = marked(buildRequestCardMessage({ request: r, now: deps.now() }));
    for (const card of r.cards) {
      await parts.send(`card:${card.channel}`, async () => {
        await client.chat.update({ channel: card.channel, ts: card.ts, ...message });
      });
    }
  }

  /** Completes the request's Workflow Builder step once (a flag on the request); throws when Slack refused. */
  async function completeWorkflow(r: CourseRequest): Promise<void> {
    if (!r.workflow || r.workflow.completed) return;
    const function_execution_id = r.workflow.executionId;
    if (r.status === 'cancelled') {
      await client.functions.completeError({
        function_execution_id,
        error: 'The requester cancelled the course request.',
      });
    } else {
      const outputs = workflowOutputs(r);
      if (!outputs) return;
      await client.functions.completeSuccess({ function_execution_id, outputs });
    }
    await requests.store.update(r.id, (x) => {
      if (x.workflow) x.workflow.completed = true;
    });
  }

  return {
    async received(r, facts, steps) {
      const parts = noticeParts(steps);
      const card = marked(buildRequestCardMessage({ request: r, freeSeats: facts.freeSeats, now: deps.now() }));
      // Without a channel, each license admin by DM: the users listed, and the members of the user
      // groups listed (an admin through a group is an admin too).
      const targets = requests.channel
        ? [requests.channel]
        : deps.roles.adminRecipients
          ? await deps.roles.adminRecipients(client)
          : [...(deps.roles.adminUsers?.() ?? [])];
      if (targets.length === 0) {
        logger.warn(
          'course request: nobody to send the card to; set REQUESTS_CHANNEL or list users or user groups in LICENSE_ADMINS',
          {
            request: r.id,
          },
        );
      }
      const cards: RequestCard[] = [];
      // Folded: a request following one the same person cancelled a moment ago takes over that
      // request's messages (its card copies and the requester's "received" DM) instead of new ones.
      const previous = await justCancelled(r);
      const reused = new Set<string>();
      for (const target of targets) {
        await parts.send(`card:${target}`, async () => {
          const channel = requests.channel ? target : await openDm(client, target);
          // Posted on an earlier try (the process stopped before the outbox recorded it): not twice.
          if (r.cards.some((c) => c.channel === channel)) return;
          const old = previous?.cards.find((c) => c.channel === channel);
          const ts = (old && (await replaced(old, card))) || (await client.chat.postMessage({ channel, ...card })).ts;
          if (ts) cards.push({ channel, ts });
          if (old && ts === old.ts) reused.add(old.ts);
        });
      }
      // Last: once the requester hears of it, the cards are saved and a decision updates every copy.
      const received = marked(buildRequestUpdateMessage(r));
      const oldDm = previous?.requesterDm;
      const dmTs = oldDm ? await replaced(oldDm, received) : undefined;
      await requests.store.update(r.id, (x) => {
        // The copies posted on an earlier try stay; this try's are added.
        x.cards = [...x.cards, ...cards.filter((c) => !x.cards.some((k) => k.channel === c.channel))];
        if (oldDm && dmTs) x.requesterDm = oldDm;
      });
      if (previous && (reused.size > 0 || dmTs)) {
        await requests.store.update(previous.id, (x) => {
          x.cards = x.cards.filter((c) => !reused.has(c.ts));
          if (dmTs) delete x.requesterDm;
        });
      }
      if (!dmTs) {
        await parts.send('dm', async () => {
          const sent = await dm(r.requester, buildRequestUpdateMessage(r));
          if (sent) {
            await requests.store.update(r.id, (x) => {
              x.requesterDm = sent;
            });
          }
        });
      }
      parts.settle();
    },

    async reminder(r, steps) {
      const parts = noticeParts(steps);
      const reminder = buildRequestReminderMessage(r, expiresAt(r));
      const message = marked(reminder);
      for (const card of r.cards) {
        await parts.send(`thread:${card.channel}`, async () => {
          await client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, ...message });
        });
      }
      // Approved for a full pool: the approver, whose own message had the choice, hears it by DM too.
      const approver = r.decidedBy;
      if (r.status === 'approved' && approver && /^[UW][A-Z0-9]+$/.test(approver)) {
        await parts.send(`dm:${approver}`, async () => void (await dm(approver, reminder)));
      }
      parts.settle();
    },

    async changed(r, extra, steps) {
      const parts = noticeParts(steps);
      const latest = (await requests.store.get(r.id)) ?? r;
      await updateCards(latest, parts);
      // A message queued for a state the request has left since: the cards show it as it is now,
      // and the requester hears of the newer state from its own message.
      if (extra?.status && extra.status !== latest.status) return parts.settle();
      // Approved with no seat yet (a full pool) is told too: where it stands and when it would expire.
      // Approved without that choice (an unclear assign being checked) waits for the outcome.
      const untold = (latest.status === 'approved' && !latest.seatChoice) || latest.status === 'assigning';
      if (!untold && !extra?.toldElsewhere) {
        await parts.send('dm', async () => {
          await dm(
            latest.requester,
            buildRequestUpdateMessage(latest, {
              ...extra,
              ...(latest.status === 'approved' ? { expiresAt: expiresAt(latest) } : {}),
            }),
          );
        });
      }
      await parts.send('workflow', () => completeWorkflow(latest));
      parts.settle();
    },
  };
}
