/**
 * The local console's cast and channels for the local demo: who the switcher offers (with the role
 * the configuration gives each), and the channels shown (where commands are typed, the audit trail,
 * the alerts).
 */
import type { AlertsConfig } from '../domain/alerts.js';
import type { Logger } from '../licensing/types.js';
import { DEMO_SLACK_USERS, DEMO_USERS } from '../slack/demo.js';
import { LOCAL_BOT, LOCAL_TEAM, type LocalSlackUser } from '../slack/local-slack.js';
import type { ConsoleOptions } from './server.js';
import type { ConsoleChannel } from './world.js';

export const CONSOLE_OPS_CHANNEL = 'C0DEMOOPS1';

/** The settings the console shows (src/config.ts's Config has them; passed in, never read here). */
export interface ConsoleSettings {
  admins: string[];
  viewers: string[] | '*';
  auditChannel?: string | undefined;
  alerts: AlertsConfig;
  requests?: { channel?: string | undefined } | undefined;
}

/** The four people the switcher offers, in order. */
const SWITCHER = [DEMO_USERS.admin, DEMO_USERS.viewer, DEMO_USERS.member, DEMO_USERS.guest];

function roleLabel(config: Pick<ConsoleSettings, 'admins' | 'viewers'>, u: LocalSlackUser): string {
  if (config.admins.length === 0 ? u.isAdmin === true || u.isOwner === true : config.admins.includes(u.id)) {
    return 'license admin';
  }
  if (u.isRestricted) return 'guest';
  if (config.viewers === '*' || config.viewers.includes(u.id)) return 'license viewer';
  return 'member, no role';
}

export function consoleChannels(
  config: Pick<ConsoleSettings, 'auditChannel' | 'alerts' | 'requests'>,
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
      purpose: `License Desk posts every change and every refused attempt here${alerts === config.auditChannel ? `, and ${alertNote}` : ''}.`,
      ...(alerts === config.auditChannel ? { alerts: true } : {}),
    });
  }
  if (alerts && alerts !== config.auditChannel) {
    channels.push({
      id: alerts,
      name: 'license-alerts',
      kind: 'channel',
      purpose: `License Desk posts ${alertNote} here.`,
      alerts: true,
    });
  }
  if (config.requests?.channel) {
    channels.push({
      id: config.requests.channel,
      name: 'license-requests',
      kind: 'channel',
      purpose: 'Course requests land here for the license admins to approve or deny.',
    });
  }
  return channels;
}

export function consoleOptions(config: ConsoleSettings, logger: Logger, signingSecret: string): ConsoleOptions {
  const roleLabels: Record<string, string> = {};
  for (const id of SWITCHER) {
    const u = DEMO_SLACK_USERS.find((x) => x.id === id);
    if (u) roleLabels[id] = roleLabel(config, u);
  }
  return {
    users: DEMO_SLACK_USERS,
    roleLabels,
    channels: consoleChannels(config),
    signingSecret,
    botUserId: LOCAL_BOT.userId,
    team: { id: LOCAL_TEAM.id, domain: LOCAL_TEAM.domain },
    appId: LOCAL_BOT.appId,
    logger,
  };
}
