/** `/licenses pools`: every pool, ten a page, with Assign (admins) and Licenses buttons. */
import type { Pool } from '../domain/types.js';
import { ActionId } from '../slack/ids.js';
import { buildPagerBlock, compact } from './common.js';
import { actions, type Block, button, context, divider, header, type SlackMessage, section } from './kit.js';
import { encodeNav, PAGE_SIZE } from './nav.js';
import { poolText } from './pool-text.js';

export interface PoolsViewInput {
  pools: Pool[];
  /** 1-based; clamped to the pages that exist. */
  page: number;
  canChange: boolean;
  now: Date;
}

export function pageCount(items: number, size = PAGE_SIZE): number {
  return Math.max(1, Math.ceil(items / size));
}

export function buildPoolsView({ pools, page, canChange, now }: PoolsViewInput): SlackMessage {
  if (pools.length === 0) {
    const text = 'You have no license pools yet. Pools appear here once licenses are bought.';
    return { text, blocks: [header('License pools'), section(text)] };
  }
  const pages = pageCount(pools.length);
  const current = Math.min(Math.max(1, page), pages);
  const shown = pools.slice((current - 1) * PAGE_SIZE, current * PAGE_SIZE);
  const available = pools.reduce((sum, p) => sum + Math.max(0, p.availableLicenses), 0);
  const total = pools.reduce((sum, p) => sum + p.licenses, 0);
  const summary = `${pools.length} pools · ${available} of ${total} seats available · page ${current} of ${pages}`;

  const rows: Block[] = shown.flatMap((pool) => {
    const buttons = [button(ActionId.poolLicenses, 'Licenses', encodeNav({ v: 'pool', p: pool.id, n: 1, i: 0 }))];
    if (canChange) buttons.unshift(button(ActionId.poolAssign, 'Assign', pool.id, 'primary'));
    return [divider(), section(poolText(pool, now)), actions(buttons)];
  });
  const pager = buildPagerBlock({
    ...(current > 1 ? { previous: { v: 'pools', n: current - 1 } } : {}),
    ...(current < pages ? { next: { v: 'pools', n: current + 1 } } : {}),
  });
  return {
    text: `License pools: ${summary}`,
    blocks: compact([header('License pools'), context(summary), ...rows, pager]),
  };
}
