/**
 * RequestNotices over Slack: the approvers' cards (REQUESTS_CHANNEL, else each license admin's DM),
 * their updates on every copy, reminders as thread replies, the requester's DMs, and the Workflow
 * Builder step's completion. A waitlisted request that gets its seat (or cannot take it) hears it from
 * the waitlist's DMs (src/requests/slack/waitlist/notices.ts); here its cards and its step follow. Uses the
 * app's own bot client (composeRequests runs once the composition root has built it): a step's
 * workflow token expires 15 minutes after the step starts (docs/course-requests.md), and a decision
 * may come days later. Sent by the outbox: every part (a card copy, a thread reply, a DM, the step's
 * completion) is tried, each once across tries (`steps`), and a failed part throws after the others,
 * so the outbox tries the notice again later and sends only what is left.
 */
import type { webApi } from '@slack/bolt';
import { withLine } from '../../approvers/index.js';
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import { noticeParts, openDm } from '../../kernel/slack/notices.js';
import {
  buildRequestCardMessage,
  buildRequestEscalatedMessage,
  buildRequestReminderMessage,
  buildRequestUpdateMessage,
  escalatedLine,
} from '../blocks/requests.js';
import type { CourseRequest } from '../domain/requests.js';
import type { RequestNotices } from '../services/service.js';
import { type Sender, senderOf } from './notice-sender.js';
import { sendReceived } from './received-notice.js';

export { FOLD_MS } from './received-notice.js';

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

type Parts = ReturnType<typeof noticeParts>;

export function createRequestNotices(
  client: webApi.WebClient,
  deps: Sender['deps'],
  requests: Sender['requests'],
  escalateTo: readonly string[] = [],
): RequestNotices {
  const s = senderOf(client, deps, requests);
  return {
    received: (r, facts, steps) => sendReceived(s, r, facts, steps),
    reminder: (r, steps) => sendReminder(s, r, steps),
    escalated: (r, steps) => sendEscalated(s, r, escalateTo, steps),
    changed: (r, extra, steps) => sendChanged(s, r, extra, steps),
  };
}

async function sendReminder(s: Sender, r: CourseRequest, steps?: NoticeSteps): Promise<void> {
  const parts = noticeParts(steps);
  const reminder = buildRequestReminderMessage(r, s.expiresAt(r));
  const message = s.marked(reminder);
  for (const card of r.cards) {
    await parts.send(`thread:${card.channel}`, async () => {
      await s.client.chat.postMessage({ channel: card.channel, thread_ts: card.ts, ...message });
    });
  }
  // Approved for a full pool: the approver, whose own message had the choice, hears it by DM too.
  const approver = r.decidedBy;
  if (r.status === 'approved' && approver && /^[UW][A-Z0-9]+$/.test(approver)) {
    await parts.send(`dm:${approver}`, async () => void (await s.dm(approver, reminder)));
  }
  parts.settle();
}

/** REQUEST_ESCALATE_TO's users and the members of its groups, once each; unset: the owners. */
async function escalationTargets(s: Sender, escalateTo: readonly string[]): Promise<string[]> {
  if (escalateTo.length === 0) {
    const { roles } = s.deps;
    return roles.adminRecipients ? roles.adminRecipients(s.client) : [...(roles.adminUsers?.() ?? [])];
  }
  const users = new Set<string>();
  for (const id of escalateTo) {
    if (!id.startsWith('S')) {
      users.add(id);
      continue;
    }
    const res = await s.client.usergroups.users.list({ usergroup: id });
    for (const u of res.users ?? []) users.add(u);
  }
  return [...users];
}

/**
 * Escalated: each owner (or member of REQUEST_ESCALATE_TO) gets the card by DM, saved on the request
 * so a decision updates it; one who has a copy already gets the escalation under it. Then the
 * requester is told, once.
 */
async function sendEscalated(
  s: Sender,
  r: CourseRequest,
  escalateTo: readonly string[],
  steps?: NoticeSteps,
): Promise<void> {
  const parts = noticeParts(steps);
  const line = escalatedLine(r);
  const card = s.marked(withLine(buildRequestCardMessage({ request: r, now: s.deps.now() }), line));
  const note = s.marked({ text: line, blocks: [{ type: 'section', text: { type: 'mrkdwn', text: line } }] });
  for (const user of await escalationTargets(s, escalateTo)) {
    await parts.send(`escalated:${user}`, async () => {
      const channel = await openDm(s.client, user);
      const latest = (await s.requests.store.get(r.id)) ?? r;
      const copy = latest.cards.find((c) => c.channel === channel);
      if (copy) return void (await s.client.chat.postMessage({ channel, thread_ts: copy.ts, ...note }));
      const ts = (await s.client.chat.postMessage({ channel, ...card })).ts;
      if (ts) await s.requests.store.update(r.id, (x) => void x.cards.push({ channel, ts }));
    });
  }
  await parts.send('requester', async () => void (await s.dm(r.requester, buildRequestEscalatedMessage(r))));
  parts.settle();
}

async function sendChanged(
  s: Sender,
  r: CourseRequest,
  extra: Parameters<RequestNotices['changed']>[1],
  steps?: NoticeSteps,
): Promise<void> {
  const parts = noticeParts(steps);
  const latest = (await s.requests.store.get(r.id)) ?? r;
  await updateCards(s, latest, parts);
  // A message queued for a state the request has left since: the cards show it as it is now,
  // and the requester hears of the newer state from its own message.
  if (extra?.status && extra.status !== latest.status) return parts.settle();
  // Approved with no seat yet (a full pool) is told too: where it stands and when it would expire.
  // Approved without that choice (an unclear assign being checked) waits for the outcome.
  const untold = (latest.status === 'approved' && !latest.seatChoice) || latest.status === 'assigning';
  if (!untold && !extra?.toldElsewhere) {
    const expiry = latest.status === 'approved' ? { expiresAt: s.expiresAt(latest) } : {};
    await parts.send('dm', async () => {
      await s.dm(latest.requester, buildRequestUpdateMessage(latest, { ...extra, ...expiry }));
    });
  }
  await parts.send('workflow', () => completeWorkflow(s, latest));
  parts.settle();
}

async function updateCards(s: Sender, r: CourseRequest, parts: Parts): Promise<void> {
  const message = s.marked(buildRequestCardMessage({ request: r, now: s.deps.now() }));
  for (const card of r.cards) {
    await parts.send(`card:${card.channel}`, async () => {
      await s.client.chat.update({ channel: card.channel, ts: card.ts, ...message });
    });
  }
}

/** Completes the request's Workflow Builder step once (a flag on the request); throws when Slack refused. */
async function completeWorkflow(s: Sender, r: CourseRequest): Promise<void> {
  if (!r.workflow || r.workflow.completed) return;
  const function_execution_id = r.workflow.executionId;
  if (r.status === 'cancelled') {
    await s.client.functions.completeError({
      function_execution_id,
      error: 'The requester cancelled the course request.',
    });
  } else {
    const outputs = workflowOutputs(r);
    if (!outputs) return;
    await s.client.functions.completeSuccess({ function_execution_id, outputs });
  }
  await s.requests.store.update(r.id, (x) => {
    if (x.workflow) x.workflow.completed = true;
  });
}
