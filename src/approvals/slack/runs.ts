/**
 * The bulk decisions running in the background of this process, each reporting to its admin in one DM
 * message updated as it goes (conversations.open, then chat.postMessage and chat.update). Tracked as
 * work, so a stop lets the current request finish: the run then ends and says so; what it had not
 * reached stays waiting, and a write left in flight by a kill is settled by the course requests'
 * settler as a single approval's is.
 */
import type { webApi } from '@slack/bolt';
import { withSandboxMarker } from '../../kernel/blocks/common.js';
import { tracked } from '../../kernel/services/work-tracker.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { openDm } from '../../kernel/slack/notices.js';
import { buildDecideManyMessage } from '../blocks/progress.js';
import type { Tally } from '../domain/plan.js';
import { type DecideManyInput, decideMany } from '../services/decide-many.js';
import type { ApprovalsPorts } from '../services/waiting.js';

export interface Runs {
  /** Starts a bulk decision in the background; resolves with its tally when it ends (tests wait on it). */
  start(deps: AppDeps, client: webApi.WebClient, ports: ApprovalsPorts, input: DecideManyInput): Promise<Tally>;
  /** Ends the runs after their current request, waiting up to `withinMs`. */
  stop(withinMs?: number): Promise<void>;
}

export function createRuns(): Runs {
  let stopping = false;
  const running = new Set<Promise<unknown>>();
  return {
    start(deps, client, ports, input) {
      const progress = progressDm(deps, client, input.actor);
      const run = tracked(deps.work, 'bulk', `approvals: ${input.kind} ${input.requests.length}`, async () => {
        await progress.post({ kind: input.kind, total: input.requests.length + (input.gone?.length ?? 0), lines: [] });
        const tally = await decideMany(ports, input, { step: progress.update, stopping: () => stopping });
        await progress.update(tally);
        return tally;
      });
      running.add(run);
      void run.finally(() => running.delete(run)).catch(() => undefined);
      return run;
    },
    async stop(withinMs = 10_000) {
      stopping = true;
      const all = Promise.allSettled([...running]);
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, withinMs).unref())]);
    },
  };
}

/** The admin's DM: posted once, then updated in place; a Slack failure is logged, never stops the run. */
function progressDm(deps: AppDeps, client: webApi.WebClient, userId: string) {
  let where: { channel: string; ts: string } | undefined;
  const message = (tally: Tally) => withSandboxMarker(buildDecideManyMessage(tally), deps.sandbox);
  const warn = (error: unknown) => deps.logger.warn('approvals: the progress DM failed', { error: String(error) });
  return {
    async post(tally: Tally) {
      try {
        const channel = await openDm(client, userId);
        const res = await client.chat.postMessage({ channel, ...message(tally) });
        if (res.ts) where = { channel, ts: res.ts };
      } catch (error) {
        warn(error);
      }
    },
    async update(tally: Tally) {
      try {
        if (where) await client.chat.update({ ...where, ...message(tally) });
        else if (tally.ended)
          await client.chat.postMessage({ channel: await openDm(client, userId), ...message(tally) });
      } catch (error) {
        warn(error);
      }
    },
  };
}
