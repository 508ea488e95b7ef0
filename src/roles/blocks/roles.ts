/**
 * What `/licenses roles` shows (docs/roles-and-approvals.md): who holds what, a page at a time, with
 * "Give a role" and a "Take away" on each granted row (Slack's confirm dialog first); the form to give a
 * role; the sentences of its refusals. Pure.
 */

import { RolesActionId, RolesCallbackId, RolesInputId } from '../../kernel/blocks/ids.js';
import type { Block, ButtonElement, SlackMessage } from '../../kernel/blocks/kit.js';
import { actions, button, context, header, plain, section } from '../../kernel/blocks/kit.js';
import {
  type InputBlock,
  input,
  type ModalView,
  modal,
  type OptionObject,
  option,
} from '../../kernel/blocks/modal-kit.js';
import { slackMoment } from '../../kernel/blocks/mrkdwn.js';
import { escapeMrkdwn, truncate } from '../../kernel/domain/mrkdwn.js';
import { type Grant, type GrantScope, mentionList, scopeWords, subjectMention } from '../domain/grants.js';

/** The refusals of a give (services/grants.ts GiveRefusal), as these words see them. */
export type GiveRefusalWords =
  | { reason: 'no-such-pool'; missing: string[] }
  | { reason: 'course-without-pools' }
  | { reason: 'no-pool-chosen' }
  | { reason: 'duplicate'; scope: GrantScope };

export const ROLES_PAGE_SIZE = 15;

export const ROLES_OFF =
  'Roles kept in the database need the records (DATA_DIR or DATABASE_URL); until then only the roles from the environment apply.';
export const ROLES_UNREADABLE =
  'I could not read or change the roles just now (the records did not answer). Please run /licenses roles again in a moment.';
export const ALREADY_GONE = 'That role was taken away already; nothing changed.';
export const OWNERS_ONLY =
  'Only the owners (the people in LICENSE_ADMINS) can give and take roles; nothing changed. Please ask an owner.';
export const OWNER_STAYS =
  'That person is an owner: owners are set in LICENSE_ADMINS and cannot be taken away from Slack. Change LICENSE_ADMINS where the app is configured; nothing changed.';
export const ALREADY_OWNER =
  'That person or group is an owner (LICENSE_ADMINS) and holds every pool already; nothing changed.';

const ROLE_TITLE = { admin: 'Admin', viewer: 'Viewer' } as const;

function ownersLine(owners: { users: readonly string[]; groups: readonly string[] }): string {
  const all = [...owners.users, ...owners.groups].map(subjectMention);
  if (all.length === 0)
    return "*Owners*: this workspace's admins and owners (LICENSE_ADMINS is not set). They hold every pool.";
  return `*Owners* (LICENSE_ADMINS, every pool, cannot be taken away here): ${all.length > 5 ? `${all.slice(0, 5).join(', ')} and ${all.length - 5} more` : mentionList(all).replace(/ or /, ' and ')}`;
}

function grantRow(g: Grant): Block {
  const text = `${subjectMention(g.subject)} · *${ROLE_TITLE[g.role]}* on ${scopeWords(g.scope, escapeMrkdwn)}\nGiven by ${subjectMention(g.givenBy)} · ${slackMoment(g.givenAt)}`;
  const take: ButtonElement = {
    ...button(RolesActionId.takeAway, 'Take away', g.id, 'danger'),
    confirm: {
      title: plain('Take this role away?'),
      text: {
        type: 'mrkdwn',
        text: truncate(
          `${subjectMention(g.subject)} loses the ${g.role} role on ${scopeWords(g.scope, escapeMrkdwn)}.`,
          300,
        ),
      },
      confirm: plain('Take it away'),
      deny: plain('Keep it'),
      style: 'danger',
    },
  };
  return section(text, take);
}

/** One page of who holds what; `said`: a sentence on top (what was just given or taken). */
export function buildRolesMessage(
  grants: readonly Grant[],
  owners: { users: readonly string[]; groups: readonly string[] },
  page: number,
  said?: string,
  /** Where the two-person rule cannot hold (only one person decides for some pools), said under the owners. */
  warning?: string,
): SlackMessage {
  const pages = Math.max(1, Math.ceil(grants.length / ROLES_PAGE_SIZE));
  const at = Math.min(Math.max(0, page), pages - 1);
  const shown = grants.slice(at * ROLES_PAGE_SIZE, (at + 1) * ROLES_PAGE_SIZE);
  const buttons = [button(RolesActionId.give, 'Give a role', 'give', 'primary')];
  if (at > 0) buttons.push(button(RolesActionId.page, '◀ Previous', String(at - 1)));
  if (at < pages - 1) buttons.push(button(RolesActionId.page, 'Next ▶', String(at + 1)));
  const blocks: Block[] = [
    header('Roles'),
    ...(said ? [section(said)] : []),
    section(ownersLine(owners)),
    ...(warning ? [context(warning)] : []),
    ...(grants.length === 0
      ? [section('No roles given yet: give a person or a user group a role on every pool, one course or chosen pools.')]
      : shown.map(grantRow)),
    ...(pages > 1 ? [context(`Page ${at + 1} of ${pages} · ${grants.length} roles given`)] : []),
    actions(buttons, 'roles_actions'),
  ];
  const text = said ?? `Roles: ${grants.length} given`;
  return { text, blocks };
}

export interface GiveFormChoices {
  /** The workspace's user groups (usergroups.list), at most 100; none when Slack would not list them. */
  groups: readonly { id: string; name: string }[];
  /** The courses that have pools, and the pools, at most 100 each. */
  courses: readonly { id: string; title: string }[];
  pools: readonly { id: string; course: string }[];
}

/** An optional pick among `options` (at most 100, Slack's limit), or nothing when there is none to pick. */
function optionalPick(
  id: { block: string; action: string },
  label: string,
  type: 'static_select' | 'multi_static_select',
  options: OptionObject[],
  hint: string,
): InputBlock[] {
  if (options.length === 0) return [];
  return [
    input(id.block, label, { type, action_id: id.action, options: options.slice(0, 100) }, { optional: true, hint }),
  ];
}

/** The "Give a role" form: a person or a user group, the role, and the scope. */
export function buildGiveModal(choices: GiveFormChoices): ModalView {
  const { person, group, role, scope, course, pools } = RolesInputId;
  return modal({
    callbackId: RolesCallbackId.give,
    title: 'Give a role',
    submit: 'Give',
    close: 'Cancel',
    blocks: [
      input(person.block, 'A person', { type: 'users_select', action_id: person.action }, { optional: true }),
      ...optionalPick(
        group,
        'Or a user group',
        'static_select',
        choices.groups.map((g) => option(g.name, g.id)),
        'Choose a person or a group, not both.',
      ),
      input(role.block, 'Role', {
        type: 'radio_buttons',
        action_id: role.action,
        options: [
          option('Admin', 'admin', 'changes licenses in the scope'),
          option('Viewer', 'viewer', 'looks only, in the scope'),
        ],
      }),
      input(scope.block, 'On', {
        type: 'radio_buttons',
        action_id: scope.action,
        options: [
          option('Every pool', 'all'),
          option('The pools of one course', 'course'),
          option('Chosen pools', 'pools'),
        ],
      }),
      ...optionalPick(
        course,
        'The course',
        'static_select',
        choices.courses.map((c) => option(c.title, c.id)),
        'For "the pools of one course": a pool added to it later is covered too.',
      ),
      ...optionalPick(
        pools,
        'The pools',
        'multi_static_select',
        choices.pools.map((p) => option(`${p.id} · ${p.course}`, p.id)),
        'For "chosen pools".',
      ),
    ],
  });
}

/** Why a give changed nothing, in one sentence. */
export function giveRefusalText(r: GiveRefusalWords): string {
  switch (r.reason) {
    case 'no-such-pool':
      return `There is no pool ${r.missing
        .slice(0, 5)
        .map((id) => `\`${escapeMrkdwn(id)}\``)
        .join(', ')}; nothing changed.`;
    case 'course-without-pools':
      return 'That course has no pools, so a role on it would cover nothing; nothing changed.';
    case 'no-pool-chosen':
      return 'Choose at least one pool; nothing changed.';
    case 'duplicate':
      return `That role already exists: the same role on ${scopeWords(r.scope, escapeMrkdwn)}. Nothing changed.`;
  }
}

/** The sentence after a give or a take, for the top of the listing. */
export function givenSentence(g: Grant, taken: boolean): string {
  const what = `the ${g.role} role on ${scopeWords(g.scope, escapeMrkdwn)}`;
  return taken
    ? `:white_check_mark: Took ${what} away from ${subjectMention(g.subject)}.`
    : `:white_check_mark: Gave ${subjectMention(g.subject)} ${what}. It works from their next click.`;
}
