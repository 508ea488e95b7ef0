/**
 * Type-ahead over pools, for the pool menus once there are too many pools for one static menu. Pure.
 * A pool matches when every typed word is found in its course title, its label ("pool 2001") or its
 * id, ignoring case and accents ("etude" finds "Étude"). Best first: the pool whose id is the query,
 * then pools where every word starts a word of the title or label, then the rest; within a rank, the
 * order the pools came in (the menus' own order: course title, then end).
 */
import type { Pool } from './types.js';

/** Lower case, accents removed, anything but letters and digits read as a space. */
export function foldForSearch(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export function searchPools<P extends Pick<Pool, 'id' | 'course'>>(
  pools: readonly P[],
  query: string,
  limit: number,
): P[] {
  const words = foldForSearch(query).split(' ').filter(Boolean);
  if (words.length === 0) return pools.slice(0, limit);
  const exactId = words.length === 1 ? words[0] : undefined;
  const ranked: { pool: P; rank: number; index: number }[] = [];
  pools.forEach((pool, index) => {
    const hay = ` ${foldForSearch(`${pool.course.title} pool ${pool.id}`)}`;
    if (!words.every((w) => hay.includes(w))) return;
    const rank = pool.id.toLowerCase() === exactId ? 0 : words.every((w) => hay.includes(` ${w}`)) ? 1 : 2;
    ranked.push({ pool, rank, index });
  });
  ranked.sort((a, b) => a.rank - b.rank || a.index - b.index);
  return ranked.slice(0, limit).map((r) => r.pool);
}
