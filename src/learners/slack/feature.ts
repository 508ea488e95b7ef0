/**
 * The learner's own desk as the composition root sees it (kernel/slack/feature.ts): Return my seat and
 * Stop these reminders always (`/licenses mine` goes through the router), and with records and the
 * setting on, the reminders before a license ends, their DMs and their stop.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { LEARNER_NOTICE_KINDS } from '../domain/learners.js';
import { registerLearners } from './index.js';
import type { LearnersFeature } from './start.js';

export function learnersFeature(composed: LearnersFeature | undefined): Feature {
  return featureOf('learners', registerLearners, LEARNER_NOTICE_KINDS, composed);
}
