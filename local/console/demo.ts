/**
 * The local console's cast and channels for the local demo: who the switcher offers (with the role
 * the configuration gives each), and the channels shown (where commands are typed, the audit trail,
 * the alerts).
 */

import type { AlertsConfig } from '../../src/alerts/domain/alerts.js';
import { CallbackId, RequestCallbackId } from '../../src/kernel/blocks/ids.js';
import type { Records } from '../../src/kernel/db/open.js';
import type { Logger } from '../../src/kernel/licensing/types.js';
import { createGrantStore } from '../../src/roles/index.js';
import { DEMO_HOLDERS, DEMO_SLACK_USERS, DEMO_USERS } from '../slack/demo.js';
import { LOCAL_BOT, LOCAL_TEAM, type LocalSlackUser } from '../slack/local-slack.js';
import type { ConsoleOptions, ConsoleShortcut } from './server.js';
import type { ConsoleChannel } from './world.js';

export const CONSOLE_OPS_CHANNEL = 'C0DEMOOPS1';

/** The settings the console shows (src/kernel/config/config.ts's Config has them; passed in, never read here). */
export interface ConsoleSettings {
  admins: string[];
  viewers: string[] | '*';
  auditChannel?: string | undefined;
  alerts: AlertsConfig;
  requests?: { channel?: string | undefined } | undefined;
  /** The weekly digest's channel (the console offers to post the digest there now). */
  digest?: { channel?: string | undefined } | undefined;
}

/**
 * The people the switcher offers, in order: the four roles and a delegate, then the members who hold seats (a reclaim
 * round asks them; the console lets you answer as them).
 */
const SWITCHER = [
  DEMO_USERS.admin,
  // Roles kept in the database (docs/roles-and-approvals.md): the pool admin, given its role at start
  // (seedDemoRoles). The delegate of the approvals goes right after it.
  DEMO_USERS.poolAdmin,
  DEMO_USERS.viewer,
  DEMO_USERS.member,
  // An approver away can hand their cards to this member (App Home, "Away and delegates").
  DEMO_USERS.delegate,
  DEMO_USERS.guest,
  DEMO_USERS.student,
  DEMO_HOLDERS.sofia,
  DEMO_HOLDERS.alberto,
  DEMO_HOLDERS.novak,
];
const HOLDERS: readonly string[] = [DEMO_USERS.student, ...Object.values(DEMO_HOLDERS)];

/** The global shortcuts of manifest.yml, as the console's shortcut menu offers them. */
export const CONSOLE_SHORTCUTS: ConsoleShortcut[] = [
  { callbackId: CallbackId.assignShortcut, name: 'Assign a course license' },
  { callbackId: RequestCallbackId.shortcut, name: 'Request a course license' },
];

function roleLabel(config: Pick<ConsoleSettings, 'admins' | 'viewers'>, u: LocalSlackUser): string {
  if (config.admins.length === 0 ? u.isAdmin === true || u.isOwner === true : config.admins.includes(u.id)) {
    return 'license admin';
  }
  if (u.isRestricted) return 'guest';
  if (config.viewers === '*' || config.viewers.includes(u.id)) return 'license viewer';
  return 'member, no role';
}

/**
 * Who is in the private channels (audit, alerts, requests): the license admins and viewers. The audit
 * trail holds student e-mails, and in Slack those channels are private, with the people the admins
 * invite; viewers may read the same data with their own commands (find, show, export), members with
 * no role and guests may not.
 */
export function privateChannelMembers(
  config: Pick<ConsoleSettings, 'admins' | 'viewers'>,
  users: readonly LocalSlackUser[],
): string[] {
  return users
    .filter((u) => !u.isBot && ['license admin', 'license viewer'].includes(roleLabel(config, u)))
    .map((u) => u.id);
}

/** The channels shown: #license-ops, open to everyone, and the private ones, for `members` only. */
export function consoleChannels(
  config: Pick<ConsoleSettings, 'auditChannel' | 'alerts' | 'requests' | 'digest'>,
  members: readonly string[],
): ConsoleChannel[] {
  const channels: ConsoleChannel[] = [
    { id: CONSOLE_OPS_CHANNEL, name: 'license-ops', kind: 'channel', purpose: 'Type /licenses help below to start.' },
  ];
  const { channel: alerts, time, timeZone } = config.alerts;
  const alertNote = `the daily alerts (at ${time} ${timeZone}: full pools, pools and licenses about to end)`;
  if (config.auditChannel) {
    channels.push({
      id: config.auditChannel,
      name: 'license-audit',
      kind: 'channel',
      members: [...members],
      purpose: `License Desk posts every change and every refused attempt here${alerts === config.auditChannel ? `, and ${alertNote}` : ''}.`,
      ...(alerts === config.auditChannel ? { alerts: true } : {}),
    });
  }
  if (alerts && alerts !== config.auditChannel) {
    channels.push({
      id: alerts,
      name: 'license-alerts',
      kind: 'channel',
      members: [...members],
      purpose: `License Desk posts ${alertNote} here.`,
      alerts: true,
    });
  }
  if (config.requests?.channel) {
    channels.push({
      id: config.requests.channel,
      name: 'license-requests',
      kind: 'channel',
      members: [...members],
      purpose: 'Course requests land here for the license admins to approve or deny.',
    });
  }
  // The weekly digest's channel (the alert channel unless DIGEST_CHANNEL names another).
  const digest = config.digest?.channel;
  if (digest) {
    const there = channels.find((c) => c.id === digest);
    if (there) there.digest = true;
    else
      channels.push({
        id: digest,
        name: 'license-digest',
        kind: 'channel',
        members: [...members],
        purpose: 'License Desk posts the weekly digest here.',
        digest: true,
      });
  }
  return channels;
}

/** The role the demo's pool admin is given: admin of the pools of Mastering DAX (course 301: pools 2001, 2002). */
export const DEMO_POOL_ADMIN_COURSE = { id: '301', title: 'Mastering DAX' } as const;

/**
 * The demo's pool admin, given at demo start when the records hold no roles yet (a demo whose owner
 * changed the roles keeps them). Given by the demo's admin, as an owner would in `/licenses roles`.
 */
export async function seedDemoRoles(records: Records, now: Date, logger: Logger): Promise<void> {
  const store = createGrantStore(records);
  if ((await store.all()).length > 0) return;
  await store.add({
    id: 'rg00000000000000d1',
    subject: DEMO_USERS.poolAdmin,
    role: 'admin',
    scope: { kind: 'course', courseId: DEMO_POOL_ADMIN_COURSE.id, courseTitle: DEMO_POOL_ADMIN_COURSE.title },
    givenBy: DEMO_USERS.admin,
    givenAt: now.toISOString(),
  });
  logger.info('console: the demo pool admin holds the admin role on the pools of Mastering DAX');
}

export function consoleOptions(config: ConsoleSettings, logger: Logger, signingSecret: string): ConsoleOptions {
  const roleLabels: Record<string, string> = {};
  for (const id of SWITCHER) {
    const u = DEMO_SLACK_USERS.find((x) => x.id === id);
    if (!u) continue;
    const role = roleLabel(config, u);
    roleLabels[id] = HOLDERS.includes(id)
      ? role === 'member, no role'
        ? 'holds a seat'
        : `${role}, holds a seat`
      : role;
  }
  if (roleLabels[DEMO_USERS.poolAdmin] === 'member, no role')
    roleLabels[DEMO_USERS.poolAdmin] = `pool admin (${DEMO_POOL_ADMIN_COURSE.title})`;
  return {
    users: DEMO_SLACK_USERS,
    roleLabels,
    channels: consoleChannels(config, privateChannelMembers(config, DEMO_SLACK_USERS)),
    shortcuts: CONSOLE_SHORTCUTS,
    signingSecret,
    botUserId: LOCAL_BOT.userId,
    team: { id: LOCAL_TEAM.id, domain: LOCAL_TEAM.domain },
    appId: LOCAL_BOT.appId,
    logger,
  };
}
