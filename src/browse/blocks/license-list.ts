/** `/licenses list [all]`: every license, ten a page, with the course of each. */

import { buildPagerBlock, compact } from '../../kernel/blocks/common.js';
import { context, header, type SlackMessage, section } from '../../kernel/blocks/kit.js';
import { missingOpenPage, openPageLabel } from '../../kernel/blocks/page-label.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import { licenseRow } from './pool-licenses.js';

export interface LicenseListInput {
  licenses: License[];
  /** For course titles; a license whose pool is unknown shows its course id. */
  poolsById: ReadonlyMap<string, Pool>;
  page: number;
  hasNext: boolean;
  includeInactive: boolean;
  now: Date;
}

export function buildLicenseListMessage(input: LicenseListInput): SlackMessage {
  const { licenses, poolsById, page, hasNext, includeInactive, now } = input;
  const which = includeInactive ? 'All licenses, inactive included' : 'Active licenses';
  const pastEnd = licenses.length === 0 && page > 1;
  const label = openPageLabel(page, licenses.length, hasNext);
  const pager = buildPagerBlock({
    ...(page > 1 ? { previous: { view: 'list', page: pastEnd ? 1 : page - 1, includeInactive } } : {}),
    ...(hasNext ? { next: { view: 'list', page: page + 1, includeInactive } } : {}),
    toggle: {
      label: includeInactive ? 'Active only' : 'Include inactive',
      target: { view: 'list', page: 1, includeInactive: !includeInactive },
    },
  });
  const rows = licenses.map((l) => licenseRow(l, now, poolsById.get(l.poolId)?.course.title ?? `course ${l.courseId}`));
  const empty = pastEnd ? missingOpenPage(page) : 'There are no licenses to show.';
  return {
    text: `${which}, ${label}`,
    blocks: compact([
      header('Licenses'),
      context(`${which} · ${label}`),
      ...(rows.length > 0 ? rows : [section(empty)]),
      pager,
    ]),
  };
}
