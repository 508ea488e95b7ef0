/**
 * The extension requests' notices over Slack, sent by the outbox: the approvers' card copies (posted,
 * saved on the request, then updated on every change), the reminder as a thread reply under each
 * copy, the learner's DMs (sent, then the outcome once), and the approver's DM after a settle. Each
 * part is sent once across tries (`steps`).
 */
import type { webApi } from '@slack/bolt';
import { cardTargets, withLine } from '../../approvers/index.js';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import type { SlackMessage } from '../../kernel/blocks/kit.js';
import type { NoticeSteps } from '../../kernel/services/outbox.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { noticeParts, openDm, sendDm } from '../../kernel/slack/notices.js';
import {
  buildExtensionCardMessage,
  buildExtensionLearnerMessage,
  buildExtensionReminderMessage,
  buildExtensionSettledMessage,
} from '../blocks/extensions.js';
import type { ExtensionStore } from '../db/store.js';
import type { ExtensionCard, ExtensionNotice, ExtensionRequest } from '../domain/extensions.js';

export interface ExtensionSender {
  client: webApi.WebClient;
  deps: Pick<AppDeps, 'logger' | 'sandbox' | 'roles' | 'records' | 'now'>;
  store: ExtensionStore;
  /** REQUESTS_CHANNEL: where the cards go; unset: each license admin by DM. */
  channel: string | undefined;
  expireAfterMs: number;
}

export function createExtensionDelivery(x: ExtensionSender) {
  const marked = (m: SlackMessage) => withSandboxMarker(m, x.deps.sandbox);
  const dm = (user: string, m: SlackMessage) => sendDm(x.deps, x.client, user, m);

  async function received(r: ExtensionRequest, steps: NoticeSteps): Promise<void> {
    const parts = noticeParts(steps);
    const card = marked(buildExtensionCardMessage(r));
    const cards: ExtensionCard[] = [];
    // The pool's approvers, a delegate for one who is away, the owners when the pool has none.
    const targets = await cardTargets(x.client, x.deps, x.channel, r.poolId, { extension: r.id }, r.requester);
    for (const { target, line } of targets) {
      await parts.send(`card:${target}`, async () => {
        const channel = x.channel ? target : await openDm(x.client, target);
        if (r.cards.some((c) => c.channel === channel)) return;
        const posted = await x.client.chat.postMessage({ channel, ...withLine(card, line) });
        if (posted.ts) cards.push({ channel, ts: posted.ts });
      });
    }
    // Saved before the learner hears of it: a decision updates every copy.
    const latest = (await x.store.get(r.id)) ?? r;
    await x.store.setCards(r.id, [
      ...latest.cards,
      ...cards.filter((c) => !latest.cards.some((k) => k.channel === c.channel)),
    ]);
    await parts.send('dm', async () => void (await dm(r.requester, buildExtensionLearnerMessage(r))));
    parts.settle();
  }

  async function changed(
    r: ExtensionRequest,
    n: Extract<ExtensionNotice, { kind: 'extension-changed' }>,
    steps: NoticeSteps,
  ) {
    const parts = noticeParts(steps);
    const card = marked(buildExtensionCardMessage(r));
    for (const c of r.cards) {
      await parts.send(
        `card:${c.channel}`,
        async () => void (await x.client.chat.update({ channel: c.channel, ts: c.ts, ...card })),
      );
    }
    // The learner hears the state the notice was queued for, once; a state left since is not told.
    if (n.tellLearner && r.status === n.status) {
      await parts.send('dm', async () => void (await dm(r.requester, buildExtensionLearnerMessage(r))));
    }
    parts.settle();
  }

  async function reminder(r: ExtensionRequest, steps: NoticeSteps): Promise<void> {
    if (r.status !== 'pending') return;
    const parts = noticeParts(steps);
    const expiresAt = new Date(Date.parse(r.createdAt) + x.expireAfterMs).toISOString();
    const m = marked(buildExtensionReminderMessage(r, expiresAt));
    for (const c of r.cards) {
      await parts.send(
        `thread:${c.channel}`,
        async () => void (await x.client.chat.postMessage({ channel: c.channel, thread_ts: c.ts, ...m })),
      );
    }
    parts.settle();
  }

  return async (notice: ExtensionNotice, steps: NoticeSteps): Promise<void> => {
    const r = await x.store.get(notice.extensionId);
    if (!r) return;
    switch (notice.kind) {
      case 'extension-received':
        return received(r, steps);
      case 'extension-changed':
        return changed(r, notice, steps);
      case 'extension-reminder':
        return reminder(r, steps);
      case 'extension-settled':
        await dm(notice.approver, buildExtensionSettledMessage(r, notice.extended));
        return;
    }
  };
}
