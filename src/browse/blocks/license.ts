/** `/licenses show <id>`: one license in full, with the change buttons its flags and the rules allow. */

import { compact } from '../../kernel/blocks/common.js';
import { ActionId } from '../../kernel/blocks/ids.js';
import {
  type ActionsBlock,
  actions,
  button,
  context,
  header,
  mrkdwn,
  type SlackMessage,
} from '../../kernel/blocks/kit.js';
import { endText, statusText, studentNameText } from '../../kernel/blocks/license-text.js';
import { dayText, escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { encodeNav } from '../../kernel/blocks/nav.js';
import { canChangeEndDate, canRevoke, endsWithPool, licenseStatus } from '../../kernel/domain/license-status.js';
import type { License, Pool } from '../../kernel/domain/types.js';
import {
  type LicenseProgress,
  PROGRESS_NOT_READ,
  type ProgressThresholds,
  progressLine,
} from '../../progress/index.js';

export interface LicenseMessageInput {
  license: License;
  /** Undefined when the pool could not be read: the view still shows the license, without changes. */
  pool: Pool | undefined;
  canChange: boolean;
  now: Date;
  /**
   * What the daily progress pass knows of it (docs/progress.md): null when it has not seen the license
   * yet; absent when progress is not recorded here (no records).
   */
  progress?: LicenseProgress | null;
  thresholds?: ProgressThresholds;
}

function whyNoChanges(license: License, pool: Pool | undefined, now: Date): string[] {
  const notes: string[] = [];
  if (!canChangeEndDate(license, pool, now)) {
    const reason = !pool
      ? 'the pool could not be read'
      : !pool.transferable
        ? 'the pool is not transferable'
        : !license.editable
          ? 'the licensing service marks it as not editable'
          : 'it no longer runs';
    notes.push(`The end date can't be changed: ${reason}.`);
  } else if (endsWithPool(license, pool)) {
    notes.push('It already ends with its pool, so its end date can only move earlier, not later.');
  }
  if (!canRevoke(license, now)) {
    notes.push(
      `It can't be revoked: ${license.revokable ? 'it no longer runs' : 'the licensing service does not allow it'}.`,
    );
  }
  return notes;
}

export function buildLicenseMessage({
  license,
  pool,
  canChange,
  now,
  progress,
  thresholds,
}: LicenseMessageInput): SlackMessage {
  const status = licenseStatus(license, now);
  const course = pool ? escapeTruncated(pool.course.title, 500) : `course \`${escapeMrkdwn(license.courseId)}\``;
  const poolLine = pool
    ? `\`${escapeMrkdwn(pool.id)}\` · ${pool.transferable ? 'transferable' : 'not transferable'} · ends ${dayText(pool.end)}`
    : `\`${escapeMrkdwn(license.poolId)}\``;
  const fields = [
    `*Student*\n${studentNameText(license.student.name, 200)}\n${escapeTruncated(license.student.email, 254)}`,
    `*Course*\n${course}`,
    `*Pool*\n${poolLine}`,
    `*Status*\n${statusText(status)}`,
    `*Start*\n${dayText(license.start)}`,
    `*End*\n${endText(license.end, now)}`,
    ...(progress === undefined || !license.active
      ? []
      : [`*Progress*\n${progress ? progressLine(progress, now, thresholds) : PROGRESS_NOT_READ}`]),
  ].map(mrkdwn);

  const buttons = [
    button(
      ActionId.poolLicenses,
      'Pool licenses',
      encodeNav({ view: 'pool', poolId: license.poolId, page: 1, includeInactive: false }),
    ),
  ];
  if (canChange && canChangeEndDate(license, pool, now)) {
    buttons.unshift(button(ActionId.licenseChangeEndDate, 'Change end date', license.id));
  }
  if (canChange && canRevoke(license, now))
    buttons.push(button(ActionId.licenseRevoke, 'Revoke…', license.id, 'danger'));
  const row: ActionsBlock = actions(buttons);
  const notes = canChange ? whyNoChanges(license, pool, now) : [];

  return {
    text: `License ${escapeTruncated(license.id, 60)} of ${escapeTruncated(license.student.name, 100)}: ${statusText(status)}`,
    blocks: compact([
      header(truncate(`License ${license.id}`, 150)),
      { type: 'section', fields },
      row,
      notes.length > 0 ? context(notes.join(' ')) : undefined,
    ]),
  };
}
