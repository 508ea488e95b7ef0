/**
 * Registration only: the buttons and the form of `/licenses roles` (docs/roles-and-approvals.md). Each
 * passes the gate (admins), then the owner check (owners only, audited when refused); nothing in a
 * payload is trusted: a grant id is looked up, a person is asked of Slack (users.info), a group must be
 * one of the workspace's (usergroups.list), the pools are read afresh.
 */
import type { App, BlockAction, ButtonAction, webApi } from '@slack/bolt';
import { buildErrorMessage, buildLockedMessage } from '../../kernel/blocks/common.js';
import { RolesActionId, RolesCallbackId } from '../../kernel/blocks/ids.js';
import { buildLoadingModal } from '../../kernel/blocks/modal-kit.js';
import { buildOutcomeModal } from '../../kernel/blocks/outcome.js';
import { BUTTON_GONE, type ClickArgs, onClick, onSubmit } from '../../kernel/slack/gate.js';
import { createReplier } from '../../kernel/slack/reply.js';
import { openView, updateView } from '../../kernel/slack/slack-io.js';
import type { Surface } from '../../kernel/slack/state.js';
import { readGiveForm } from '../blocks/form.js';
import {
  ALREADY_GONE,
  ALREADY_OWNER,
  buildGiveModal,
  buildRolesMessage,
  type GiveFormChoices,
  givenSentence,
  giveRefusalText,
  OWNER_STAYS,
  ROLES_UNREADABLE,
} from '../blocks/roles.js';
import { GROUP_ID, type NewGrant, USER_ID } from '../domain/grants.js';
import { ownerCheck } from './owner.js';
import type { RolesAdmin } from './start.js';

const TITLE = 'Give a role';

/** The workspace's user groups (usergroups.list); none when Slack will not list them (the form then offers people only). */
async function workspaceGroups(s: Surface, client: webApi.WebClient): Promise<{ id: string; name: string }[]> {
  try {
    const res = await client.usergroups.list({});
    return (res.usergroups ?? [])
      .filter((g) => g.id && GROUP_ID.test(g.id) && !g.date_delete)
      .map((g) => ({ id: g.id as string, name: g.name || g.handle || (g.id as string) }));
  } catch (error) {
    s.deps.logger.warn('usergroups.list failed; the roles form offers people only', { error: String(error) });
    return [];
  }
}

async function formChoices(s: Surface, client: webApi.WebClient, admin: RolesAdmin): Promise<GiveFormChoices> {
  const [groups, pools] = await Promise.all([workspaceGroups(s, client), admin.index.pools().catch(() => [])]);
  const courses = new Map(pools.map((p) => [p.course.id, p.course.title]));
  return {
    groups,
    courses: [...courses].map(([id, title]) => ({ id, title })),
    pools: pools.map((p) => ({ id: p.id, course: p.course.title })),
  };
}

/**
 * Why this person or group cannot be given a role, or nothing: an owner already, not found, deactivated,
 * a bot or a guest; a group that is not one of the workspace's.
 */
async function subjectProblem(
  s: Surface,
  client: webApi.WebClient,
  admin: RolesAdmin,
  subject: string,
): Promise<string | undefined> {
  if (GROUP_ID.test(subject)) {
    if (admin.owners().groups.includes(subject)) return ALREADY_OWNER;
    const known = await workspaceGroups(s, client);
    return known.some((g) => g.id === subject)
      ? undefined
      : 'That user group is not one of this workspace’s; nothing changed.';
  }
  if (!USER_ID.test(subject)) return 'That is not a person I can give a role to; nothing changed.';
  let user: webApi.UsersInfoResponse['user'];
  try {
    user = (await client.users.info({ user: subject })).user;
  } catch {
    user = undefined;
  }
  if (!user) return 'I could not find that person in Slack; nothing changed.';
  if (user.deleted) return 'That person’s account is deactivated, so a role would never be used; nothing changed.';
  if (user.is_bot) return 'That is a bot: roles are for people; nothing changed.';
  if (user.is_restricted || user.is_ultra_restricted)
    return 'That person is a guest: guests cannot hold a role in License Desk; nothing changed.';
  if (admin.owners().users.includes(subject) || (await admin.resolver.isOwner(client, subject))) return ALREADY_OWNER;
  return undefined;
}

function registerGive(app: App, s: Surface): void {
  app.action<BlockAction<ButtonAction>>(
    RolesActionId.give,
    onClick(s, { need: 'admin', audit: () => ({ action: 'role-given' }) }, async (args) => {
      const owner = await ownerCheck(s.deps, args.client, args.body.user.id, s.state.audit, { action: 'role-given' });
      if (!owner.ok) return createReplier(args.respond, s.deps, true).send(buildLockedMessage(owner.sentence));
      const viewId = await openView(
        s.deps,
        args.client,
        args.body.trigger_id,
        buildLoadingModal(RolesCallbackId.give, TITLE, 'Reading the pools and user groups'),
      );
      if (!viewId) return;
      await updateView(s.deps, args.client, viewId, buildGiveModal(await formChoices(s, args.client, owner.admin)));
    }),
  );

  app.view(
    RolesCallbackId.give,
    onSubmit(s, { need: 'admin', title: TITLE, audit: { action: 'role-given' } }, async (args) => {
      const actor = args.body.user.id;
      const read = readGiveForm(args.view.state.values as Parameters<typeof readGiveForm>[0]);
      const attempt = read.ok ? auditOf(read.grant) : {};
      const owner = await ownerCheck(s.deps, args.client, actor, s.state.audit, { action: 'role-given', ...attempt });
      const outcome = (tone: 'done' | 'refused', headline: string) =>
        args.ack({ response_action: 'update', view: buildOutcomeModal({ title: TITLE, tone, headline }) });
      if (!owner.ok) return outcome('refused', owner.sentence);
      if (!read.ok) return args.ack({ response_action: 'errors', errors: read.errors });
      const problem = await subjectProblem(s, args.client, owner.admin, read.grant.subject);
      if (problem) return outcome('refused', problem);
      await args.ack({
        response_action: 'update',
        view: buildLoadingModal(RolesCallbackId.give, TITLE, 'Checking the pools and giving the role'),
      });
      let done: ReturnType<typeof buildOutcomeModal>;
      try {
        const given = await owner.admin.service.give(actor, read.grant, s.state.audit);
        done =
          given.kind === 'given'
            ? buildOutcomeModal({ title: TITLE, tone: 'done', headline: givenSentence(given.grant, false) })
            : buildOutcomeModal({ title: TITLE, tone: 'refused', headline: giveRefusalText(given) });
      } catch (error) {
        s.deps.logger.warn('giving a role failed', { error: String(error) });
        done = buildOutcomeModal({
          title: TITLE,
          tone: 'failed',
          headline: 'I could not read the pools or save the role just now; nothing changed. Please try again.',
        });
      }
      await updateView(s.deps, args.client, args.body.view.id, done);
    }),
  );
}

/** What an audit entry says of a role asked for. */
function auditOf(g: NewGrant) {
  return { subject: g.subject, role: g.role };
}

function registerListing(app: App, s: Surface): void {
  const click = (handler: (args: ClickArgs, admin: RolesAdmin) => Promise<void>, action: 'role-taken' | 'command') =>
    onClick(
      s,
      { need: 'admin', audit: () => ({ action, ...(action === 'command' ? { command: 'roles' } : {}) }) },
      async (args) => {
        const owner = await ownerCheck(s.deps, args.client, args.body.user.id, s.state.audit, {
          action,
          ...(action === 'command' ? { command: 'roles' } : {}),
        });
        if (!owner.ok) return createReplier(args.respond, s.deps, true).send(buildLockedMessage(owner.sentence));
        try {
          await handler(args, owner.admin);
        } catch (error) {
          s.deps.logger.warn('roles: a click failed', { action, error: String(error) });
          await createReplier(args.respond, s.deps, true).send(buildErrorMessage(ROLES_UNREADABLE));
        }
      },
    );

  app.action<BlockAction<ButtonAction>>(
    RolesActionId.page,
    click(async (args, admin) => {
      const page = Number(args.action.value);
      const reply = createReplier(args.respond, s.deps, false);
      if (!Number.isInteger(page) || page < 0) return reply.send(buildErrorMessage(BUTTON_GONE));
      await reply.send(buildRolesMessage(await admin.service.list(), admin.owners(), page));
    }, 'command'),
  );

  app.action<BlockAction<ButtonAction>>(
    RolesActionId.takeAway,
    click(async (args, admin) => {
      const value = args.action.value ?? '';
      const reply = createReplier(args.respond, s.deps, false);
      const { users, groups } = admin.owners();
      if (users.includes(value) || groups.includes(value)) return reply.send(buildLockedMessage(OWNER_STAYS));
      if (!/^rg[0-9a-f]{16}$/.test(value)) return reply.send(buildErrorMessage(BUTTON_GONE));
      const taken = await admin.service.take(args.body.user.id, value, s.state.audit);
      const said = taken.kind === 'taken' ? givenSentence(taken.grant, true) : `:information_source: ${ALREADY_GONE}`;
      await reply.send(buildRolesMessage(await admin.service.list(), admin.owners(), 0, said));
    }, 'role-taken'),
  );
}

export function registerRoles(app: App, s: Surface): void {
  registerGive(app, s);
  registerListing(app, s);
}
