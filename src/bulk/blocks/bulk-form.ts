/**
 * The bulk-assign modal's form: a pool, an optional end date, and the list. A
 * plain_text_input holds at most 3,000 characters (platform.md section 5), about 100 lines of
 * `name, email`, so the list has five boxes read as one list, in order: up to 500 lines in all.
 */

import { BulkInputId, DeskCallbackId } from '../../kernel/blocks/ids.js';
import { context, plain, section } from '../../kernel/blocks/kit.js';
import type { LimitWait } from '../../kernel/blocks/limit-wait.js';
import {
  buildLoadingModal,
  input,
  type ModalView,
  modal,
  option,
  type PlainTextInput,
} from '../../kernel/blocks/modal-kit.js';
import { dayText, escapeTruncated } from '../../kernel/blocks/mrkdwn.js';
import { buildPoolSuggestions, needsTypeAhead, poolSelectElement } from '../../kernel/blocks/pool-select.js';
import { count } from '../../kernel/domain/count.js';
import { courseLabel } from '../../kernel/domain/pool-oddities.js';
import type { Pool } from '../../kernel/domain/types.js';
import { BULK_MAX_ROWS } from '../domain/bulk-list.js';

export const LIST_BOXES = 5;
export const LIST_BOX_CHARS = 3000;

export const BULK_TITLE = 'Bulk assign';

export function buildBulkLoadingModal(what = 'Reading your pools', wait?: LimitWait): ModalView {
  return buildLoadingModal(DeskCallbackId.bulkInfo, BULK_TITLE, what, wait);
}

/**
 * Pools one can assign from: running, and with a free seat or transferable (recycling frees one). All
 * of them: past 100, the form's menu is a type-ahead (pool-select.ts).
 */
export function assignablePools(pools: readonly Pool[], now: Date): Pool[] {
  const t = now.getTime();
  return pools
    .filter((p) => Date.parse(p.end) > t && (p.availableLicenses > 0 || p.transferable))
    .sort((a, b) => a.course.title.localeCompare(b.course.title) || a.end.localeCompare(b.end));
}

/** The bulk form's pool menu as the person types: the offered pools matching `query`, labelled as in the form. */
export function buildBulkPoolSuggestions(pools: readonly Pool[], query: string, now: Date) {
  return buildPoolSuggestions(assignablePools(pools, now), query, poolOption);
}

function poolOption(p: Pool) {
  const seats = `${Math.max(0, p.availableLicenses)} of ${p.licenses} free`;
  const kind = p.transferable ? 'transferable' : 'not transferable';
  return option(`${courseLabel(p.course)} · pool ${p.id}`, p.id, `${seats} · ${kind} · ends ${dayText(p.end)}`);
}

function listBox(n: number) {
  const id = BulkInputId.list(n);
  // Built apart from the call: modal-kit's PlainTextInput does not list `multiline`, which Slack has.
  const element: PlainTextInput & { multiline: true } = {
    type: 'plain_text_input',
    action_id: id.action,
    multiline: true,
    max_length: LIST_BOX_CHARS,
    ...(n === 1 ? { placeholder: plain('ada@contoso.com\nGrace Hopper, grace@contoso.com') } : {}),
  };
  return input(id.block, n === 1 ? 'Students, one a line' : `More students (box ${n} of ${LIST_BOXES})`, element, {
    optional: n > 1,
    ...(n === 1
      ? {
          hint: `email or name, email on each line. A box holds ${LIST_BOX_CHARS} characters (about 100 lines); use the next boxes for more, up to ${BULK_MAX_ROWS} lines in all.`,
        }
      : {}),
  });
}

export function buildBulkFormModal(pools: readonly Pool[], now: Date): ModalView {
  const choices = assignablePools(pools, now);
  if (choices.length === 0) {
    return modal({
      callbackId: DeskCallbackId.bulkInfo,
      title: BULK_TITLE,
      blocks: [section('There is no pool to assign from: every pool has ended, or is full and not transferable.')],
    });
  }
  const typeAhead = needsTypeAhead(choices.length);
  return modal({
    callbackId: DeskCallbackId.bulkForm,
    title: BULK_TITLE,
    submit: 'Check the list',
    close: 'Cancel',
    blocks: [
      section(
        'Paste the students to enrol. Nothing is assigned yet: the next step shows what would happen to each line.',
      ),
      input(
        BulkInputId.pool.block,
        'Pool',
        poolSelectElement({
          actionId: BulkInputId.pool.action,
          placeholder: typeAhead ? 'Type a course, pool or id' : 'Choose a pool',
          pools: choices,
          label: poolOption,
        }),
        typeAhead ? { hint: 'Type part of a course title or a pool id to narrow the list.' } : {},
      ),
      input(
        BulkInputId.endDate.block,
        'End date',
        { type: 'datepicker', action_id: BulkInputId.endDate.action, placeholder: plain('The pool end') },
        { optional: true, hint: 'Leave empty for the end of the pool.' },
      ),
      ...Array.from({ length: LIST_BOXES }, (_, i) => listBox(i + 1)),
      context(
        `_${typeAhead ? 'To choose from' : 'Shown'}: ${count(choices.length, 'pool that can', 'pools that can')} take students. Ended pools and full untransferable ones are left out._`,
      ),
    ],
  });
}

export function buildBulkNoticeModal(text: string): ModalView {
  return modal({
    callbackId: DeskCallbackId.bulkInfo,
    title: BULK_TITLE,
    blocks: [section(escapeTruncated(text, 2900))],
  });
}
