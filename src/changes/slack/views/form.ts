/**
 * A submitted view's state.values (block_id -> action_id -> value; platform.md section 1.4) read
 * with zod into typed forms. Syntax only: the rules are in src/domain.
 */
import * as z from 'zod';
import { InputId } from '../../../kernel/blocks/ids.js';
import { parseDay } from '../../../kernel/domain/end-date.js';
import { ID_PATTERN } from '../../../kernel/domain/ids.js';

const valueSchema = z.looseObject({
  type: z.string().optional(),
  value: z.string().nullish(),
  selected_option: z.looseObject({ value: z.string() }).nullish(),
  selected_user: z.string().nullish(),
  selected_date: z.string().nullish(),
  selected_options: z.array(z.looseObject({ value: z.string() })).nullish(),
});
const valuesSchema = z.record(z.string(), z.record(z.string(), valueSchema));
type Values = z.infer<typeof valuesSchema>;
type Value = z.infer<typeof valueSchema>;

const USER = /^[UW][A-Z0-9]{2,20}$/;

function read(state: unknown): Values {
  const parsed = z.object({ values: valuesSchema }).safeParse(state);
  return parsed.success ? parsed.data.values : {};
}

function at(values: Values, ids: { block: string; action: string }): Value | undefined {
  return values[ids.block]?.[ids.action];
}

const text = (v: Value | undefined): string | undefined => {
  const t = v?.value?.replace(/\p{Cc}/gu, ' ').trim();
  return t ? t : undefined;
};

/** A date field: undefined when empty, 'invalid' when not a real YYYY-MM-DD. */
function date(v: Value | undefined): string | 'invalid' | undefined {
  const raw = v?.selected_date;
  if (!raw) return undefined;
  return parseDay(raw) ?? 'invalid';
}

export interface AssignForm {
  poolId: string | undefined;
  emailText: string | undefined;
  userId: string | undefined;
  name: string | undefined;
  endDate: string | 'invalid' | undefined;
  recycle: boolean;
}

export function readAssignForm(state: unknown): AssignForm {
  const v = read(state);
  const pool = at(v, InputId.assignPool)?.selected_option?.value;
  const user = at(v, InputId.assignUser)?.selected_user ?? undefined;
  const name = text(at(v, InputId.assignName));
  return {
    poolId: pool && ID_PATTERN.test(pool) ? pool : undefined,
    emailText: text(at(v, InputId.assignEmail)),
    userId: user && USER.test(user) ? user : undefined,
    name: name ? Array.from(name).slice(0, 200).join('') : undefined,
    endDate: date(at(v, InputId.assignEndDate)),
    recycle: (at(v, InputId.assignRecycle)?.selected_options ?? []).some((o) => o.value === 'recycle'),
  };
}

export interface ExtendForm {
  quick: string | undefined;
  date: string | 'invalid' | undefined;
}

export function readExtendForm(state: unknown): ExtendForm {
  const v = read(state);
  const quick = at(v, InputId.extendQuick)?.selected_option?.value;
  const day = quick?.startsWith('day:') ? parseDay(quick.slice(4)) : undefined;
  return { quick: day, date: date(at(v, InputId.extendDate)) };
}

export function readRecycleChoice(state: unknown): string | undefined {
  const chosen = at(read(state), InputId.recycleChoice)?.selected_option?.value;
  return chosen && ID_PATTERN.test(chosen) ? chosen : undefined;
}
