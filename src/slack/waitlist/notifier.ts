/**
 * Telling people what the waitlist did, by DM (conversations.open, im:write; chat:write): the
 * requester, and the admin who approved the request (or, when unknown, every user listed in
 * LICENSE_ADMINS). A DM that fails is logged by tellByDm and never stops the waitlist.
 */
import type { webApi } from '@slack/bolt';
import { buildWaitlistSeatMessage, buildWaitlistSkippedMessage } from '../../blocks/waitlist.js';
import type { WaitlistEntry, WaitlistNotifier } from '../../services/waitlist.js';
import type { AppDeps } from '../deps.js';
import { tellByDm } from '../slack-io.js';

function approversOf(deps: AppDeps, entry: WaitlistEntry): string[] {
  const approvers = entry.approver ? [entry.approver] : [...(deps.roles.adminUsers?.() ?? [])];
  return approvers.filter((u) => u !== entry.requester);
}

export function createSlackWaitlistNotifier(client: webApi.WebClient, deps: AppDeps): WaitlistNotifier {
  return {
    async assigned(entry, outcome) {
      const facts = { entry, licenseId: outcome.licenseId, ...(outcome.endDate ? { endDate: outcome.endDate } : {}) };
      await tellByDm(deps, client, entry.requester, buildWaitlistSeatMessage({ ...facts, to: 'requester' }));
      for (const admin of approversOf(deps, entry)) {
        await tellByDm(deps, client, admin, buildWaitlistSeatMessage({ ...facts, to: 'approver' }));
      }
    },
    async skipped(entry, reason, next, poolEnded) {
      const facts = { entry, reason, next, ...(poolEnded ? { poolEnded } : {}) };
      await tellByDm(deps, client, entry.requester, buildWaitlistSkippedMessage({ ...facts, to: 'requester' }));
      for (const admin of approversOf(deps, entry)) {
        await tellByDm(deps, client, admin, buildWaitlistSkippedMessage({ ...facts, to: 'approver' }));
      }
    },
  };
}
