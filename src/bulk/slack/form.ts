/**
 * Reading the bulk modal's submissions. Values in a view are what a client sent: each is checked
 * here (shape) and again by the service and the API (meaning); none decides who may do what.
 */
import * as z from 'zod';
import { BulkInputId } from '../../kernel/blocks/ids.js';
import { ID_PATTERN } from '../../kernel/domain/ids.js';
import { LIST_BOXES } from '../blocks/bulk-form.js';
import { type ParsedBulkList, parseBulkList } from '../domain/bulk-list.js';

type StateValues = Record<string, Record<string, unknown>>;

const selected = z.object({ selected_option: z.object({ value: z.string() }).nullable().optional() });
const date = z.object({ selected_date: z.string().nullable().optional() });
const text = z.object({ value: z.string().nullable().optional() });
const boxes = z.object({
  selected_options: z
    .array(z.object({ value: z.string() }))
    .nullable()
    .optional(),
});

function field<T extends z.ZodType>(values: StateValues, id: { block: string; action: string }, schema: T) {
  const parsed = schema.safeParse(values[id.block]?.[id.action] ?? {});
  return parsed.success ? (parsed.data as z.infer<T>) : undefined;
}

export interface BulkForm {
  poolId: string | undefined;
  endDate: string | undefined;
  list: ParsedBulkList;
}

export function readBulkForm(values: StateValues): BulkForm {
  const pool = field(values, BulkInputId.pool, selected)?.selected_option?.value;
  const endDate = field(values, BulkInputId.endDate, date)?.selected_date ?? undefined;
  const texts = Array.from({ length: LIST_BOXES }, (_, i) => field(values, BulkInputId.list(i + 1), text)?.value ?? '');
  return { poolId: pool && ID_PATTERN.test(pool) ? pool : undefined, endDate, list: parseBulkList(texts) };
}

export function recycleConfirmed(values: StateValues): boolean {
  return (field(values, BulkInputId.recycle, boxes)?.selected_options ?? []).some((o) => o.value.startsWith('free:'));
}

/** Inline errors keyed by input block id (platform.md section 3); empty when the form can be checked. */
export function formErrors(form: BulkForm, today: string): Record<string, string> {
  const errors: Record<string, string> = {};
  if (!form.poolId) errors[BulkInputId.pool.block] = 'Choose a pool.';
  if (form.endDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(form.endDate)) {
    errors[BulkInputId.endDate.block] = 'Pick a date from the calendar.';
  } else if (form.endDate !== undefined && form.endDate < today) {
    errors[BulkInputId.endDate.block] = 'The end date is in the past; pick today or later, or leave it empty.';
  }
  const first = BulkInputId.list(1).block;
  if (form.list.rows.length === 0) errors[first] = 'Paste at least one line: an e-mail, or a name and an e-mail.';
  if (form.list.extra > 0) {
    errors[first] =
      `The list has ${form.list.rows.length + form.list.extra} lines; up to ${form.list.rows.length} at a time. Split it into two jobs.`;
  }
  return errors;
}
