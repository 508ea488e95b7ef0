/** `/licenses pool <id>`: the pool and its licenses, ten a page, with an include-inactive switch. */
import type { License, Pool } from '../domain/types.js';
import { buildPagerBlock, compact } from './common.js';
import { ActionId } from './ids.js';
import { type Block, button, context, header, type SlackMessage, section } from './kit.js';
import { licenseRowText } from './license-text.js';
import { escapeTruncated, truncate } from './mrkdwn.js';
import { encodeNav, PAGE_SIZE } from './nav.js';
import { clampPage, missingOpenPage, openPageLabel, pageCount, pageOf } from './page-label.js';
import { poolText } from './pool-text.js';

export interface PoolLicensesInput {
  pool: Pool;
  licenses: License[];
  page: number;
  hasNext: boolean;
  includeInactive: boolean;
  now: Date;
}

export function licenseRow(license: License, now: Date, courseTitle?: string): Block {
  const details = button(ActionId.licenseDetails, 'Details', encodeNav({ view: 'show', licenseId: license.id }));
  return section(licenseRowText(license, now, courseTitle), details);
}

export function buildPoolLicensesMessage(input: PoolLicensesInput): SlackMessage {
  const { pool, licenses, page, hasNext, includeInactive, now } = input;
  const which = includeInactive ? 'all licenses, inactive included' : 'active licenses';
  // Active only, the pool's assigned count is the total; with inactive ones the API gives none.
  const pages = includeInactive ? undefined : pageCount(pool.assignedLicenses, PAGE_SIZE);
  const pastEnd = licenses.length === 0 && page > 1;
  const missing = !pastEnd ? undefined : pages ? clampPage(page, pages).missing : missingOpenPage(page);
  const back = pastEnd ? (pages ?? 1) : page - 1;
  const label = pages && !pastEnd ? pageOf(page, pages) : openPageLabel(page, licenses.length, hasNext);
  const pager = buildPagerBlock({
    ...(page > 1 ? { previous: { view: 'pool', poolId: pool.id, page: back, includeInactive } } : {}),
    ...(hasNext ? { next: { view: 'pool', poolId: pool.id, page: page + 1, includeInactive } } : {}),
    toggle: {
      label: includeInactive ? 'Active only' : 'Include inactive',
      target: { view: 'pool', poolId: pool.id, page: 1, includeInactive: !includeInactive },
    },
  });
  return {
    text: `Pool ${escapeTruncated(pool.id, 60)}: ${which}, ${label}`,
    blocks: compact([
      header(truncate(`Licenses · ${pool.course.title}`, 150)),
      section(poolText(pool, now, 1000)),
      context(`Showing ${which} · ${label}`),
      ...(licenses.length === 0
        ? [section(missing ?? `This pool has no ${which}.`)]
        : licenses.map((l) => licenseRow(l, now))),
      pager,
    ]),
  };
}
