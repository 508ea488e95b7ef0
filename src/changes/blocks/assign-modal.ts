/**
 * The assign form: pool, student (e-mail or Slack member), optional name and end
 * date, and, when a listed pool is full but transferable, the offer to free a seat. Pure.
 */

import { CallbackId, InputId } from '../../kernel/blocks/ids.js';
import { context, section } from '../../kernel/blocks/kit.js';
import {
  compactView,
  type InputBlock,
  input,
  type ModalView,
  modal,
  OPTION_TEXT_MAX,
  type OptionObject,
  option,
} from '../../kernel/blocks/modal-kit.js';
import { escapeMrkdwn, escapeTruncated, truncate } from '../../kernel/blocks/mrkdwn.js';
import { buildPoolSuggestions, needsTypeAhead, poolSelectElement } from '../../kernel/blocks/pool-select.js';
import { dayText, today } from '../../kernel/domain/end-date.js';
import type { Pool } from '../../kernel/domain/types.js';
import { needsRecycle, poolBlocker } from '../domain/assignment.js';

export interface AssignPrefill {
  poolId?: string;
  email?: string;
  userId?: string;
  /** The student's name, e.g. a course requester's Slack name. */
  name?: string;
  endDate?: string;
}

export interface AssignFormInput {
  pools: Pool[];
  prefill: AssignPrefill;
  privateMetadata: string;
  now: Date;
}

export const ASSIGN_TITLE = 'Assign a license';

function poolFacts(pool: Pool): string {
  const seats = pool.availableLicenses > 0 ? `${pool.availableLicenses}/${pool.licenses} free` : 'full';
  const kind = pool.transferable ? 'transferable' : 'not transferable';
  return `${seats} · ${kind} · ends ${dayText(pool.end) || '?'}`;
}

/** The pool id is in the option's text, not only in its description: two pools of one course look alike otherwise. */
export function poolOption(pool: Pool): OptionObject {
  const suffix = ` · pool ${pool.id}`;
  const title = truncate(pool.course.title || `Course ${pool.course.id}`, OPTION_TEXT_MAX - Array.from(suffix).length);
  return option(`${title}${suffix}`, pool.id, poolFacts(pool));
}

/** Pools that can give a seat now, by course title then end. */
export function openPools(pools: readonly Pool[], now: Date): Pool[] {
  return pools
    .filter((p) => poolBlocker(p, now) === undefined)
    .sort((a, b) => a.course.title.localeCompare(b.course.title) || a.end.localeCompare(b.end));
}

/**
 * The pools the form's menu offers: every open pool. Up to 100 they are listed in a static menu; past
 * 100 the menu is a type-ahead (pool-select.ts) over all of them, so none is out of reach.
 */
export function selectablePools(pools: Pool[], now: Date): { listed: Pool[]; hidden: number } {
  const listed = openPools(pools, now);
  return { listed, hidden: pools.length - listed.length };
}

/** The assign form's pool menu as the person types: the open pools matching `query`, labelled as in the form. */
export function buildAssignPoolSuggestions(pools: readonly Pool[], query: string, now: Date) {
  return buildPoolSuggestions(openPools(pools, now), query, poolOption);
}

function prefillNote(pools: Pool[], poolId: string | undefined, now: Date): string | undefined {
  if (poolId === undefined) return undefined;
  const pool = pools.find((p) => p.id === poolId);
  if (!pool) return `:warning: There is no pool \`${escapeMrkdwn(poolId)}\`; pick one below.`;
  const blocker = poolBlocker(pool, now);
  if (blocker === 'ended') return `:warning: Pool \`${escapeMrkdwn(pool.id)}\` has ended; pick another pool.`;
  if (blocker === 'full-untransferable') {
    return `:warning: Pool \`${escapeMrkdwn(pool.id)}\` (${escapeTruncated(pool.course.title, 200)}) is full and not transferable, so no seat can be freed there; pick another pool.`;
  }
  return undefined;
}

export function buildAssignModal({ pools, prefill, privateMetadata, now }: AssignFormInput): ModalView {
  const { listed, hidden } = selectablePools(pools, now);
  const note = prefillNote(pools, prefill.poolId, now);
  if (listed.length === 0) {
    return modal({
      callbackId: CallbackId.changeInfo,
      title: ASSIGN_TITLE,
      blocks: compactView([
        note ? section(note) : undefined,
        section('No pool can give a seat right now: every pool has ended, or is full and not transferable.'),
      ]),
    });
  }
  const blocks = compactView([
    note ? section(note) : undefined,
    poolInput(listed, prefill.poolId),
    hidden > 0
      ? context(`${hidden} pool${hidden === 1 ? ' is' : 's are'} not listed: ended, or full and not transferable.`)
      : undefined,
    ...studentInputs(prefill),
    endDateInput(prefill.endDate, now),
    listed.some(needsRecycle) ? recycleInput() : undefined,
  ]);
  return modal({
    callbackId: CallbackId.assignForm,
    title: ASSIGN_TITLE,
    blocks,
    submit: 'Assign',
    close: 'Cancel',
    privateMetadata,
  });
}

/** The pool menu: a static list, or a type-ahead past 100 pools. */
function poolInput(listed: Pool[], initialId: string | undefined): InputBlock {
  const typeAhead = needsTypeAhead(listed.length);
  return input(
    InputId.assignPool.block,
    'Pool',
    poolSelectElement({
      actionId: InputId.assignPool.action,
      placeholder: typeAhead ? 'Type a course, pool or id' : 'Pick a course pool',
      pools: listed,
      label: poolOption,
      initialId,
    }),
    typeAhead ? { hint: `${listed.length} pools: type part of a course title or a pool id to narrow the list.` } : {},
  );
}

/** Who the seat is for: an e-mail or a Slack member, and the name for a student new to the service. */
function studentInputs(prefill: AssignPrefill): InputBlock[] {
  return [
    input(
      InputId.assignEmail.block,
      'Student e-mail',
      {
        type: 'plain_text_input',
        action_id: InputId.assignEmail.action,
        max_length: 254,
        placeholder: { type: 'plain_text', text: 'ada@example.com' },
        ...(prefill.email ? { initial_value: prefill.email } : {}),
      },
      { optional: true, hint: 'Or pick a Slack member below; License Desk fills in their e-mail.' },
    ),
    input(
      InputId.assignUser.block,
      'Or a Slack member',
      {
        type: 'users_select',
        action_id: InputId.assignUser.action,
        placeholder: { type: 'plain_text', text: 'Pick a person' },
        ...(prefill.userId ? { initial_user: prefill.userId } : {}),
      },
      { optional: true },
    ),
    input(
      InputId.assignName.block,
      'Name',
      {
        type: 'plain_text_input',
        action_id: InputId.assignName.action,
        max_length: 200,
        ...(prefill.name ? { initial_value: Array.from(prefill.name).slice(0, 200).join('') } : {}),
      },
      {
        optional: true,
        hint: 'Used only when the student is new to the licensing service. Empty: the Slack name of the member picked, or of the member with that e-mail; needed when no Slack member has it.',
      },
    ),
  ];
}

function endDateInput(endDate: string | undefined, now: Date): InputBlock {
  return input(
    InputId.assignEndDate.block,
    'End date',
    {
      type: 'datepicker',
      action_id: InputId.assignEndDate.action,
      placeholder: { type: 'plain_text', text: 'The pool end' },
      ...(endDate ? { initial_date: endDate } : {}),
    },
    { optional: true, hint: `Empty: the pool end. Never after the pool end, never before ${dayText(today(now))}.` },
  );
}

/** The offer to free a seat, shown when a listed pool is full but transferable. */
function recycleInput(): InputBlock {
  return input(
    InputId.assignRecycle.block,
    'If the pool is full',
    {
      type: 'checkboxes',
      action_id: InputId.assignRecycle.action,
      options: [
        option(
          'Free a seat by ending another license',
          'recycle',
          'You will see and confirm which license ends first.',
        ),
      ],
    },
    { optional: true },
  );
}
