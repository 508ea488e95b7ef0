/** `/licenses roles` in Block Kit: the listing's pages within Slack's limits, and the form read back. */
import { describe, expect, it } from 'vitest';
import { RolesActionId, RolesInputId } from '../../../src/kernel/blocks/ids.js';
import { readGiveForm } from '../../../src/roles/blocks/form.js';
import { buildRolesMessage, ROLES_PAGE_SIZE } from '../../../src/roles/blocks/roles.js';
import type { Grant } from '../../../src/roles/index.js';

const grants: Grant[] = Array.from({ length: 40 }, (_, i) => ({
  id: `rg${String(i).padStart(16, '0')}`,
  subject: `U0PERSON${String(i).padStart(2, '0')}`,
  role: i % 2 === 0 ? 'admin' : 'viewer',
  scope: { kind: 'pools', poolIds: ['2001'] },
  givenBy: 'U0OWNER001',
  givenAt: '2026-11-27T10:00:00.000Z',
}));
const owners = { users: ['U0OWNER001'], groups: ['S0OWNERS01'] };

const buttonsOf = (blocks: unknown[]) =>
  JSON.stringify(blocks).match(new RegExp(`"action_id":"(${Object.values(RolesActionId).join('|')})"`, 'g')) ?? [];

describe('the listing', () => {
  it('pages past 15 roles, within 50 blocks, a Take away on each granted row only', () => {
    const first = buildRolesMessage(grants, owners, 0);
    expect(first.blocks.length).toBeLessThanOrEqual(50);
    expect(buttonsOf(first.blocks).filter((b) => b.includes(RolesActionId.takeAway))).toHaveLength(ROLES_PAGE_SIZE);
    expect(JSON.stringify(first.blocks)).toContain('Page 1 of 3 · 40 roles given');
    expect(JSON.stringify(first.blocks)).toContain('Next ▶');
    expect(JSON.stringify(first.blocks)).not.toContain('Previous');
    const last = buildRolesMessage(grants, owners, 9);
    expect(JSON.stringify(last.blocks)).toContain('Page 3 of 3');
    expect(buttonsOf(last.blocks).filter((b) => b.includes(RolesActionId.takeAway))).toHaveLength(10);
    expect(JSON.stringify(first.blocks)).toContain('<!subteam^S0OWNERS01>');
  });
});

describe('the form read back', () => {
  const pick = (value: string) => ({ selected_option: { value } });
  const I = RolesInputId;

  it('a person, a role and chosen pools', () => {
    const read = readGiveForm({
      [I.person.block]: { [I.person.action]: { selected_user: 'U0PERSON01' } },
      [I.role.block]: { [I.role.action]: pick('viewer') },
      [I.scope.block]: { [I.scope.action]: pick('pools') },
      [I.pools.block]: { [I.pools.action]: { selected_options: [{ value: '2003' }, { value: '2001' }] } },
    });
    expect(read).toEqual({
      ok: true,
      grant: { subject: 'U0PERSON01', role: 'viewer', scope: { kind: 'pools', poolIds: ['2003', '2001'] } },
    });
  });

  it('a person and a group at once, a forged role, a course not chosen: each field says what to fix', () => {
    const read = readGiveForm({
      [I.person.block]: { [I.person.action]: { selected_user: 'U0PERSON01' } },
      [I.group.block]: { [I.group.action]: pick('S0GROUP001') },
      [I.role.block]: { [I.role.action]: pick('owner') },
      [I.scope.block]: { [I.scope.action]: pick('course') },
      [I.course.block]: { [I.course.action]: { selected_option: null } },
    });
    expect(read.ok).toBe(false);
    expect(read.ok ? {} : read.errors).toEqual({
      [I.group.block]: 'Choose a person or a user group, not both.',
      [I.role.block]: 'Choose Admin or Viewer.',
      [I.course.block]: 'Choose the course.',
    });
  });
});
