/**
 * `/licenses pools`: every pool, ten a page, with Assign (admins) and Licenses buttons. Pools that still
 * run come first and are the only ones counted in the totals; ended pools come last, without Assign.
 */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import {
  actions,
  type Block,
  button,
  context,
  divider,
  header,
  type SlackMessage,
  section,
} from '../../kernel/blocks/kit.js';
import { encodeNav, PAGE_SIZE } from '../../kernel/blocks/nav.js';
import { clampPage, pageCount, pageOf } from '../../kernel/blocks/page-label.js';
import { poolText } from '../../kernel/blocks/pool-text.js';
import { count, hasEnded } from '../../kernel/domain/count.js';
import type { Pool } from '../../kernel/domain/types.js';

export interface PoolsMessageInput {
  pools: Pool[];
  /** 1-based; a page past the end shows the last page and says so. */
  page: number;
  canChange: boolean;
  now: Date;
}

export function buildPoolsMessage({ pools, page, canChange, now }: PoolsMessageInput): SlackMessage {
  if (pools.length === 0) {
    const text = 'You have no license pools yet. Pools appear here once licenses are bought.';
    return { text, blocks: [header('License pools'), section(text)] };
  }
  const running = pools.filter((p) => !hasEnded(p, now));
  const ended = pools.filter((p) => hasEnded(p, now));
  const ordered = [...running, ...ended];
  const pages = pageCount(ordered.length, PAGE_SIZE);
  const { current, missing } = clampPage(page, pages);
  const shown = ordered.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const available = running.reduce((sum, p) => sum + Math.max(0, p.availableLicenses), 0);
  const total = running.reduce((sum, p) => sum + Math.max(0, p.licenses), 0);
  const which =
    ended.length > 0 ? `${count(running.length, 'pool')} running, ${ended.length} ended` : count(pools.length, 'pool');
  const summary = `${which} · ${available} of ${count(total, 'seat')} available · ${pageOf(current, pages)}`;

  const rows: Block[] = shown.flatMap((pool) => {
    const buttons = [
      button(
        ActionId.poolLicenses,
        'Licenses',
        encodeNav({ view: 'pool', poolId: pool.id, page: 1, includeInactive: false }),
      ),
    ];
    // No Assign on a pool that has ended: the API would refuse it.
    if (canChange && !hasEnded(pool, now)) buttons.unshift(button(ActionId.poolAssign, 'Assign', pool.id, 'primary'));
    return [divider(), section(poolText(pool, now)), actions(buttons)];
  });
  const pager = buildPagerBlock({
    ...(current > 1 ? { previous: { view: 'pools', page: current - 1 } } : {}),
    ...(current < pages ? { next: { view: 'pools', page: current + 1 } } : {}),
  });
  return {
    text: `${missing ? `${missing} ` : ''}License pools: ${summary}`,
    blocks: compact([
      missing ? section(`:information_source: ${missing}`) : undefined,
      header('License pools'),
      context(summary),
      ...rows,
      pager,
    ]),
  };
}
