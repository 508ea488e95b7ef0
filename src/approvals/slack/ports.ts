/** The approvals use cases' ports, from the listeners' deps: the course requests' service and store. */
import type { AppDeps } from '../../kernel/slack/deps.js';
import type { ApprovalsPorts } from '../services/waiting.js';

export const NOT_SET_UP = 'Course requests are not set up in this License Desk process, so nothing waits for approval.';

export function portsOf(deps: AppDeps): ApprovalsPorts | undefined {
  const r = deps.requests;
  if (!r) return undefined;
  const { service, store } = r;
  return {
    requests: {
      approve: (id, approver) => service.approve(id, approver),
      deny: (id, approver, reason) => service.deny(id, approver, reason),
      toWaitlist: (id, approver) => service.toWaitlist(id, approver),
      get: (id) => service.get(id),
      byStatus: (status) => store.byStatus(status),
    },
    licensing: deps.licensing,
    logger: deps.logger,
  };
}
