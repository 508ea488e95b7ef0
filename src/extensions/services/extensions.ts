/**
 * The use cases of extension requests (docs/learners.md, "Ask for more time"): the learner's holding check and
 * ask, an approver's Approve and Deny, the periodic check (reminders, expiry, read-backs) and the
 * settle of an approval's write left in flight. Typed outcomes; no Slack types.
 */
import { inScope } from '../../kernel/domain/scope.js';
import { currentScope } from '../../kernel/services/request-scope.js';
import type { Intent } from '../../kernel/services/writes/intents.js';
import type { ExtensionDecision, ExtensionRequest } from '../domain/extensions.js';
import { type AskOutcome, ask, type Holding, holding, type NewAsk } from './ask.js';
import { createExtensionCheck, settleExtension } from './check.js';
import { approve, deny } from './decide.js';
import { createExtensionKernel, type ExtensionKernel, type ExtensionServiceOptions } from './kernel.js';

export type { AskOutcome, ExtensionServiceOptions, Holding, NewAsk };

export interface ExtensionService {
  /** Does the person with this Slack e-mail hold the license, and may it get more time now? */
  holding(licenseId: string, email: string): Promise<Holding>;
  ask(input: NewAsk): Promise<AskOutcome>;
  approve(id: string, approver: string): Promise<ExtensionDecision>;
  deny(id: string, approver: string, reason?: string): Promise<ExtensionDecision>;
  get(id: string): Promise<ExtensionRequest | undefined>;
  /** Reminds and expires what is due, and reads back approvals left without an outcome. */
  check(): Promise<{ reminded: number; expired: number; settled: number }>;
  /** The Settler's handler for EXTENSION_INTENT: reads the license back, never resends. */
  settle(intent: Pick<Intent, 'id' | 'subject'>): Promise<void>;
  readonly kernel: ExtensionKernel;
}

export function createExtensionService(opts: ExtensionServiceOptions): ExtensionService {
  const k = createExtensionKernel(opts);
  return {
    holding: (licenseId, email) => holding(k, licenseId, email),
    ask: (input) => ask(k, input),
    approve: (id, approver) => approve(k, id, approver),
    deny: (id, approver, reason) => deny(k, id, approver, reason),
    // As the person asking sees it: an ask about a pool outside their scope is none (request-scope.ts).
    get: async (id) => {
      const request = await opts.store.get(id);
      return request && inScope(currentScope(), request.poolId) ? request : undefined;
    },
    check: createExtensionCheck(k),
    settle: (intent) => settleExtension(k, intent.id, intent.subject),
    kernel: k,
  };
}
