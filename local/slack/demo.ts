/**
 * The local demo (npm start with no Slack settings): the app runs in HTTP mode on loopback against
 * the local Slack double, so a newcomer can try every command with `npm run try -- pools`.
 * Its signing secret and bot token (src/kernel/config/demo-credentials.ts, re-exported here) are public on
 * purpose: demo mode only listens on 127.0.0.1, and reaches nothing real (no licensing API but a
 * sandbox, no REDIS_URL; src/kernel/config/config.ts refuses the rest).
 */
import type { LocalSlackUser } from './local-slack.js';

export { DEMO_BOT_TOKEN, DEMO_SIGNING_SECRET } from '../../src/kernel/config/demo-credentials.js';

export const DEMO_USERS = {
  /** A workspace admin: an admin of License Desk while LICENSE_ADMINS is unset. */
  admin: 'U0DEMOADM1',
  /** A plain member: refused unless LICENSE_VIEWERS lists them or is *. */
  member: 'U0DEMOMEM1',
  /** Has the e-mail of a sandbox demo student: try `find <@U0DEMOSTU1>`. */
  student: 'U0DEMOSTU1',
  /** A license viewer while the local console is on and LICENSE_VIEWERS is unset (src/kernel/config/config.ts). */
  viewer: 'U0DEMOVWR1',
  /** A guest account: never let in, whatever LICENSE_VIEWERS says. */
  guest: 'U0DEMOGST1',
  /** A pool admin: admin of the pools of Mastering DAX (2001, 2002) by a role given at demo start (docs/console.md). */
  poolAdmin: 'U0DEMOPAD1',
  /** A member with no role an approver can delegate to while away (docs/roles-and-approvals.md). */
  delegate: 'U0DEMODLG1',
} as const;

/**
 * Members whose e-mails are those of sandbox students who hold seats in transferable pools and have
 * not started their course (0 % in the sandbox's progress), so a reclaim round (`/licenses reclaim`)
 * asks them and the local console can act as them: their DM, Keep my seat, Release it. By seed order:
 * student 5 (pools 2001 and 2004), student 10 (2001), student 25 (2003) of local/sandbox/seed.ts.
 */
export const DEMO_HOLDERS = {
  sofia: 'U0DEMOHLD1',
  alberto: 'U0DEMOHLD2',
  novak: 'U0DEMOHLD3',
} as const;

export const DEMO_SLACK_USERS: LocalSlackUser[] = [
  { id: DEMO_USERS.admin, name: 'demo.admin', realName: 'Demo Admin', email: 'demo.admin@contoso.com', isAdmin: true },
  { id: DEMO_USERS.member, name: 'demo.member', realName: 'Demo Member', email: 'demo.member@contoso.com' },
  { id: DEMO_USERS.student, name: 'alberto.rossi', realName: 'Alberto Rossi', email: 'alberto.rossi@contoso.com' },
  { id: DEMO_USERS.viewer, name: 'demo.viewer', realName: 'Demo Viewer', email: 'demo.viewer@contoso.com' },
  {
    id: DEMO_USERS.poolAdmin,
    name: 'demo.pooladmin',
    realName: 'Demo Pool Admin',
    email: 'demo.pooladmin@contoso.com',
  },
  {
    id: DEMO_USERS.guest,
    name: 'demo.guest',
    realName: 'Demo Guest',
    email: 'demo.guest@fabrikam.com',
    isRestricted: true,
  },
  { id: DEMO_USERS.delegate, name: 'demo.delegate', realName: 'Demo Delegate', email: 'demo.delegate@contoso.com' },
  { id: DEMO_HOLDERS.sofia, name: 'sofia.dubois', realName: 'Sofia Dubois', email: 'sofia.dubois@fabrikam.com' },
  {
    id: DEMO_HOLDERS.alberto,
    name: 'alberto.tanaka10',
    realName: 'Alberto Tanaka',
    email: 'alberto.tanaka10@contoso.com',
  },
  { id: DEMO_HOLDERS.novak, name: 'sofia.novak25', realName: 'Sofia Novak', email: 'sofia.novak25@contoso.com' },
];

/**
 * Where licensing data comes from: the in-process sandbox, or a sandbox given by URL. Never the real
 * API: the demo's secret is public, so the demo refuses to start against it (src/kernel/config/config.ts, src/main.ts).
 */
export type LicensingSource = 'in-process sandbox' | 'sandbox by URL';

export function demoBanner(appUrl: string, licensing: LicensingSource): string {
  // try talks to PORT (default 3000): on any other port the lines must carry it to work as pasted.
  const port = new URL(appUrl).port || '80';
  const run = port === '3000' ? 'npm run try --' : `PORT=${port} npm run try --`;
  return [
    '',
    'License Desk is running in LOCAL DEMO MODE: no Slack workspace is involved.',
    `  Slack's side is played by a local double; the app listens on ${appUrl}/slack/events.`,
    licensing === 'in-process sandbox'
      ? '  Licensing data comes from the in-process SANDBOX (demo data, nothing real).'
      : '  Licensing data comes from a licensing SANDBOX at LICENSING_API_URL (it says so; nothing real).',
    '',
    'Try a command in another terminal (signed exactly as Slack signs it):',
    `  ${run} help`,
    `  ${run} pools`,
    `  ${run} assign 2001                  (shows the form the app opens)`,
    `  ${run} --user ${DEMO_USERS.member} pools     (a member with no role)`,
    '',
    'To connect a real workspace, create the app from manifest.yml and set SLACK_BOT_TOKEN and',
    'SLACK_SIGNING_SECRET (and SLACK_APP_TOKEN for Socket Mode); see README.md.',
    '',
  ].join('\n');
}
