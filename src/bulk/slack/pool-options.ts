/**
 * The type-ahead of the pool menus (assign and bulk-assign forms, once they offer more than 100 pools):
 * Slack sends a block_suggestion with what the person typed to the Options Load URL (platform.md
 * section 5) and wants the options back within 3 seconds. They come from the cached pools list; when that
 * read would make the person wait (a cold cache behind a busy rate budget), the pools read last time
 * answer instead, and with none yet, an empty menu (logged) that the next keystroke fills.
 */

import type { AllMiddlewareArgs, App, SlackOptionsMiddlewareArgs } from '@slack/bolt';
import { listPools } from '../../browse/index.js';
import { buildAssignPoolSuggestions } from '../../changes/index.js';
import { BulkInputId, InputId } from '../../kernel/blocks/ids.js';
import type { OptionObject } from '../../kernel/blocks/modal-kit.js';
import { withinScope } from '../../kernel/domain/scope.js';
import type { Pool } from '../../kernel/domain/types.js';
import { unscoped } from '../../kernel/services/request-scope.js';
import type { AppDeps } from '../../kernel/slack/deps.js';
import { authorize } from '../../kernel/slack/gate.js';
import { buildBulkPoolSuggestions } from '../blocks/bulk-form.js';

/** Slack gives up after 3 s; what is not ready by then is answered from the last list. */
const ANSWER_WITHIN_MS = 2000;

const SUGGESTIONS: Record<string, (pools: readonly Pool[], query: string, now: Date) => { options: OptionObject[] }> = {
  [BulkInputId.pool.action]: buildBulkPoolSuggestions,
  [InputId.assignPool.action]: buildAssignPoolSuggestions,
};

export function registerPoolOptions(app: App, deps: AppDeps): void {
  const handler = createPoolOptionsHandler(deps);
  for (const actionId of Object.keys(SUGGESTIONS))
    app.options({ type: 'block_suggestion', action_id: actionId }, handler);
}

export function createPoolOptionsHandler(deps: AppDeps) {
  let lastPools: Pool[] | undefined;
  const timeout = <T>(work: Promise<T>): Promise<T | undefined> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), ANSWER_WITHIN_MS);
    });
    return Promise.race([work, late]).finally(() => clearTimeout(timer));
  };
  return async ({
    ack,
    body,
    client,
  }: SlackOptionsMiddlewareArgs<'block_suggestion'> & AllMiddlewareArgs): Promise<void> => {
    const suggest = SUGGESTIONS[body.action_id];
    const verdict = await timeout(authorize(deps, client, body.user.id, 'admin'));
    // Both forms are for license admins; anyone else (or a role Slack is slow to tell) gets no pools.
    if (!suggest || !verdict?.allowed || !verdict.canChange) {
      await ack({ options: [] });
      return;
    }
    const read = unscoped(() => listPools(deps.licensing)).then((pools) => {
      lastPools = pools;
      return pools;
    });
    read.catch((error: unknown) => deps.logger.warn('pool menu: reading pools failed', { error: String(error) }));
    const pools = (await timeout(read).catch(() => undefined)) ?? lastPools;
    if (!pools) deps.logger.warn('pool menu: no pools to offer within 3 s; the next keystroke asks again');
    // The last pools read serve everyone; each person is offered those of their scope.
    await ack(
      suggest(
        withinScope(verdict.scope, pools ?? [], (p) => p.id),
        String(body.value ?? ''),
        deps.now(),
      ),
    );
  };
}
