/**
 * Who approves, as the composition root sees it (kernel/slack/feature.ts): its listeners (App Home's
 * "Away and delegates", the owners' card), and with records its notices and the daily list's job.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { APPROVER_NOTICE_KINDS } from '../domain/delegation.js';
import { type RefreshHome, registerApprovers } from './listeners.js';
import type { ApproversFeature } from './start.js';

export function approversFeature(composed: ApproversFeature | undefined, refreshHome: RefreshHome): Feature {
  return featureOf(
    'approvers',
    (app, surface) => registerApprovers(app, surface, refreshHome),
    APPROVER_NOTICE_KINDS,
    composed,
  );
}
