/**
 * The progress records as the composition root sees them (kernel/slack/feature.ts): App Home's "Return
 * this seat" and "Run the progress pass now", the daily pass and the automatic return after it, the
 * return's notices, and their stop (the pass first, then the return it may have started).
 */
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { HomeSections } from '../../home/index.js';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import { type Feature, noticeRenderers } from '../../kernel/slack/feature.js';
import { AUTO_RETURN_NOTICE_KINDS } from '../domain/auto-return.js';
import type { ProgressPass } from '../services/progress-pass.js';
import type { AutoReturnFeature } from './auto-return.js';
import { createProgressRunHandler } from './progress-run.js';
import { createReturnConfirmHandler, createReturnSeatHandler } from './return-seat.js';

export function progressFeature(
  pass: ProgressPass | undefined,
  autoReturn: AutoReturnFeature | undefined,
  home: { sections?: HomeSections },
): Feature {
  const { sections } = home;
  return {
    name: 'progress',
    register(app, s) {
      // "Return this seat" on a finished course: the revoke confirmation by DM, and Home told the outcome.
      app.action<BlockAction<ButtonAction>>(DeskActionId.returnSeat, createReturnSeatHandler(s, sections));
      app.action<BlockAction<ButtonAction>>(DeskActionId.returnSeatConfirm, createReturnConfirmHandler(s, sections));
      // "Run the progress pass now" (admins): the daily pass at once, at its share of the budget.
      app.action<BlockAction<ButtonAction>>(DeskActionId.progressRun, createProgressRunHandler(s, sections));
    },
    ...(autoReturn
      ? {
          notices: noticeRenderers(AUTO_RETURN_NOTICE_KINDS, async (_client, notice) => {
            await autoReturn.deliver(notice);
          }),
        }
      : {}),
    start(mode) {
      if (mode !== 'all') return;
      pass?.start();
      autoReturn?.start();
    },
    async stop() {
      await pass?.stop();
      await autoReturn?.stop();
    },
  };
}
