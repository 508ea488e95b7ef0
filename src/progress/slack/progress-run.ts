/**
 * "Run the progress pass now" on an admin's App Home (docs/progress.md): after fixing data or changing
 * a setting, an admin need not wait a day. The pass is the daily one (the same instance, so the same
 * share of the licensing budget and the same lease across replicas); a second click while it runs
 * starts nothing. Home is published again with a line saying it runs; when it is over, the admin gets
 * a DM with what it read, and Home is published again with the same line. The pass runs outside the
 * click's listener (it may take most of an hour on a large account), so a stop ends it after its page.
 */

import { type HomeSections, showHome } from '../../home/index.js';
import { DeskActionId } from '../../kernel/blocks/ids.js';
import { onClick } from '../../kernel/slack/gate.js';
import { tellByDm } from '../../kernel/slack/notices.js';
import type { Surface } from '../../kernel/slack/state.js';
import { buildProgressRunMessage, progressRunLine } from '../blocks/progress-text.js';

export function createProgressRunHandler(s: Surface, sections?: HomeSections) {
  const { deps } = s;
  return onClick(s, { need: 'admin' }, async (args) => {
    const user = args.body.user.id;
    const pass = deps.progressPass;
    const home = (result: string) => showHome(deps, args.client, user, { sections, result });
    if (!pass) return home(progressRunLine({ kind: 'off' }));
    const run = pass.runNow();
    if (run.kind === 'busy') return home(progressRunLine({ kind: 'busy' }));
    deps.logger.info('progress pass run now', { user, action: DeskActionId.progressRun });
    void run.done
      .then(async (outcome) => {
        await tellByDm(deps, args.client, user, buildProgressRunMessage(outcome));
        await home(progressRunLine(outcome));
      })
      .catch((error: unknown) =>
        deps.logger.warn('progress pass run now: could not tell the admin', { error: String(error) }),
      );
    await home(progressRunLine({ kind: 'started', ...pass.pace() }));
  });
}
