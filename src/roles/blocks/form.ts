/**
 * The "Give a role" form as Slack sends it back: what was chosen, or one sentence per field that is
 * wrong (shown under that field). Pure; who the person is (a full member, not an owner) is checked after.
 */
import { RolesInputId } from '../../kernel/blocks/ids.js';
import { GROUP_ID, type GrantScope, type NewGrant, POOL_ID, USER_ID } from '../domain/grants.js';

type Values = Record<
  string,
  Record<
    string,
    {
      selected_user?: string | null;
      selected_option?: { value?: string } | null;
      selected_options?: { value?: string }[] | null;
    }
  >
>;

export type FormReading = { ok: true; grant: NewGrant } | { ok: false; errors: Record<string, string> };

function picked(values: Values, id: { block: string; action: string }): string | undefined {
  const v = values[id.block]?.[id.action];
  return v?.selected_user ?? v?.selected_option?.value ?? undefined;
}

export function readGiveForm(values: Values): FormReading {
  const { person, group, role, scope, course, pools } = RolesInputId;
  const errors: Record<string, string> = {};
  const who = picked(values, person);
  const team = picked(values, group);
  if (who && team) errors[group.block] = 'Choose a person or a user group, not both.';
  else if (!who && !team) errors[person.block] = 'Choose a person, or a user group below.';
  else if (who && !USER_ID.test(who)) errors[person.block] = 'That is not a person I can give a role to.';
  else if (team && !GROUP_ID.test(team)) errors[group.block] = 'That is not a user group I know.';
  const r = picked(values, role);
  if (r !== 'admin' && r !== 'viewer') errors[role.block] = 'Choose Admin or Viewer.';
  const kind = picked(values, scope);
  let chosen: GrantScope | undefined;
  if (kind === 'all') chosen = { kind: 'all' };
  else if (kind === 'course') {
    const c = picked(values, course);
    if (c && POOL_ID.test(c)) chosen = { kind: 'course', courseId: c };
    else errors[values[course.block] ? course.block : scope.block] = 'Choose the course.';
  } else if (kind === 'pools') {
    const ids = (values[pools.block]?.[pools.action]?.selected_options ?? []).map((o) => o.value ?? '');
    if (ids.length > 0 && ids.every((id) => POOL_ID.test(id))) chosen = { kind: 'pools', poolIds: ids };
    else errors[values[pools.block] ? pools.block : scope.block] = 'Choose at least one pool.';
  } else errors[scope.block] = 'Choose every pool, one course or chosen pools.';
  if (Object.keys(errors).length > 0 || !chosen || (r !== 'admin' && r !== 'viewer')) return { ok: false, errors };
  return { ok: true, grant: { subject: (who ?? team) as string, role: r, scope: chosen } };
}
