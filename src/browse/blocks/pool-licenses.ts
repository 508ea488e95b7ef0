/** `/licenses pool <id>`: the pool and its licenses, ten a page, with an include-inactive switch. */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import { type Block, button, context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { licenseRowText } from '../../kernel/blocks/license-text.js';
import { escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { encodeNav, PAGE_SIZE } from '../../kernel/blocks/nav.js';
import { clampPage, missingOpenPage, openPageLabel, pageCount, pageOf } from '../../kernel/blocks/page-label.js';
import { poolText } from '../../kernel/blocks/pool-text.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import { type LicenseProgress, type ProgressThresholds, progressLine } from '../../progress/index.js';

export interface PoolLicensesInput {
  pool: Pool;
  licenses: License[];
  page: number;
  hasNext: boolean;
  includeInactive: boolean;
  now: Date;
  /** What the daily progress pass knows of these licenses (docs/progress.md), by license id; absent: not shown. */
  progress?: ReadonlyMap<string, LicenseProgress>;
  thresholds?: ProgressThresholds;
}

export function licenseRow(license: License, now: Date, courseTitle?: string, progress?: string): Block {
  const details = button(ActionId.licenseDetails, 'Details', encodeNav({ view: 'show', licenseId: license.id }));
  const text = licenseRowText(license, now, courseTitle);
  return section(progress ? `${text}\n${progress}` : text, details);
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
        : licenses.map((l) => {
            const p = l.active ? input.progress?.get(l.id) : undefined;
            return licenseRow(l, now, undefined, p ? progressLine(p, now, input.thresholds) : undefined);
          })),
      pager,
    ]),
  };
}
