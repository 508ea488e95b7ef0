/** The daily progress pass as the end-to-end tests run it by hand, over a test app's licensing and records. */

import { DeskActionId } from '../../src/kernel/blocks/ids.js';
import type { License } from '../../src/kernel/domain/types.js';
import {
  createProgressPass,
  type ProgressPass,
  type ProgressPassOptions,
} from '../../src/progress/services/progress-pass.js';
import type { RequestOptions, TestApp } from './app-harness.js';
import type { SlackCall } from './fake-slack.js';
import { allText } from './fixtures.js';

/**
 * A progress pass on `t` (its licensing client, records and logger) with the clock `now`, paced at 25
 * calls per 3 s and taking the whole share; `afterPass` as the app would wire it, when given.
 */
export function progressPassOn(
  t: TestApp,
  now: () => Date,
  afterPass?: ProgressPassOptions['afterPass'],
): ProgressPass {
  if (!t.records) throw new Error('no records');
  return createProgressPass({
    licensing: t.licensing,
    records: t.records,
    logger: t.deps.logger,
    now,
    rateLimit: { limit: 25, windowMs: 3000 },
    share: 1,
    ...(afterPass ? { afterPass } : {}),
  });
}

/**
 * `user` opens App Home on `t`: resolves with the first view published after the opening that shows
 * the pools (not the "Refreshing…" one).
 */
export async function openHome(t: TestApp, user: string): Promise<SlackCall> {
  const publishes = () => t.slack.calls.filter((c) => c.method === 'views.publish' && c.args.user_id === user);
  const before = publishes().length;
  await t.event({ type: 'app_home_opened', user, channel: 'D0HOME0001', tab: 'home' });
  return t.slack.waitForCall(
    'views.publish',
    (c) =>
      c.args.user_id === user &&
      publishes().indexOf(c) >= before &&
      !allText(c.args.view).includes('Refreshing') &&
      allText(c.args.view).includes('Pools'),
    10_000,
  );
}

/** "Return this seat" clicked on App Home: no response_url, so every answer comes by DM. */
export function clickReturnSeat(t: TestApp, licenseId: string, options?: RequestOptions) {
  return t.action(
    {
      actions: [
        {
          action_id: DeskActionId.returnSeat,
          block_id: 'returns',
          type: 'button',
          value: licenseId,
          action_ts: `${Date.now() / 1000}`,
        },
      ],
      response_url: undefined,
      container: { type: 'view', view_id: 'V0HOME0001' },
    },
    options,
  );
}

/** A finished seat as the progress pass hands it to the automatic return, seen completed at `at`. */
export function returnCandidate(l: License, at: Date) {
  return {
    licenseId: l.id,
    poolId: l.poolId,
    studentEmail: l.student.email,
    studentName: l.student.name,
    completionSeenAt: at.toISOString(),
    completedOn: at.toISOString().slice(0, 10),
  };
}
