/**
 * Telling people what the waitlist did, by DM (conversations.open, im:write; chat:write): the
 * requester, and the admin who approved the request (or, when unknown, every user listed in
 * LICENSE_ADMINS). Sent by the outbox: every DM is tried, each one once across tries (`steps`), and a
 * failed one throws after the others, so the outbox tries it again later.
 */
import type { webApi } from '@slack/bolt';
import type { SlackMessage } from '../../../kernel/blocks/kit.js';
import type { AppDeps } from '../../../kernel/slack/deps.js';
import { noticeParts, sendDm } from '../../../kernel/slack/notices.js';
import { buildWaitlistSeatMessage, buildWaitlistSkippedMessage } from '../../blocks/waitlist.js';
import type { WaitlistEntry, WaitlistNotices } from '../../services/waitlist.js';

function approversOf(deps: AppDeps, entry: WaitlistEntry): string[] {
  const approvers = entry.approver ? [entry.approver] : [...(deps.roles.adminUsers?.() ?? [])];
  return approvers.filter((u) => u !== entry.requester);
}

export function createWaitlistNotices(client: webApi.WebClient, deps: AppDeps): WaitlistNotices {
  /** A DM to the requester, then one to each approver: each sent once across tries (`steps`). */
  async function tellBoth(
    entry: WaitlistEntry,
    steps: Parameters<typeof noticeParts>[0],
    build: (to: 'requester' | 'approver') => SlackMessage,
  ): Promise<void> {
    const parts = noticeParts(steps);
    const dm = (user: string, message: SlackMessage) =>
      parts.send(`dm:${user}`, async () => void (await sendDm(deps, client, user, message)));
    await dm(entry.requester, build('requester'));
    for (const admin of approversOf(deps, entry)) await dm(admin, build('approver'));
    parts.settle();
  }
  return {
    async assigned(entry, outcome, steps) {
      const facts = { entry, licenseId: outcome.licenseId, ...(outcome.endDate ? { endDate: outcome.endDate } : {}) };
      await tellBoth(entry, steps, (to) => buildWaitlistSeatMessage({ ...facts, to }));
    },
    async skipped(entry, reason, next, poolEnded, steps) {
      const facts = { entry, reason, next, ...(poolEnded ? { poolEnded } : {}) };
      await tellBoth(entry, steps, (to) => buildWaitlistSkippedMessage({ ...facts, to }));
    },
  };
}
