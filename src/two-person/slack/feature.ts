/**
 * The two-person rule as the composition root sees it (kernel/slack/feature.ts): its buttons always
 * (without records they say it is not set up), and with records its notices, its job and its stop.
 */
import { type Feature, featureOf } from '../../kernel/slack/feature.js';
import { TWO_PERSON_NOTICE_KINDS } from '../domain/two-person.js';
import { registerTwoPerson } from './index.js';
import type { TwoPersonFeature } from './start.js';

export function twoPersonFeature(composed: TwoPersonFeature | undefined): Feature {
  return featureOf('two-person', registerTwoPerson, TWO_PERSON_NOTICE_KINDS, composed);
}
