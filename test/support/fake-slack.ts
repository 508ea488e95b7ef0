/**
 * Slack's Web API and response_urls for end-to-end tests: the recording server from
 * local/slack/local-slack.ts, seeded with a cast of test users. Assert on `calls` and `responses`, or
 * wait with `waitForCall(method, predicate)` / `waitForResponse(id, predicate)`.
 */
import { type LocalSlack, type LocalSlackUser, startLocalSlack } from '../../local/slack/local-slack.js';
import type { License } from '../../src/kernel/domain/types.js';

export type { LocalSlackUser, ResponseUrlPost, SlackAnswer, SlackCall } from '../../local/slack/local-slack.js';
export type FakeSlack = LocalSlack;

/** A reply that is no longer the "Working on it" placeholder: what the person ends up reading. */
export const isFinalReply = (post: { body: { text?: unknown } }): boolean =>
  !String(post.body.text).includes('Working on it');

/** The cast. Harness defaults: `admin` is in LICENSE_ADMINS, `viewer` in LICENSE_VIEWERS, and the
 *  members of user group `viewerGroup` are viewers too. */
export const TEST_USERS = {
  admin: 'U0MGR00001',
  viewer: 'U0VIEW0001',
  groupViewer: 'U0GVIEW001',
  nobody: 'U0NOROLE01',
  workspaceAdmin: 'U0WSADMIN1',
  guest: 'U0GUEST001',
  student: 'U0ALEX0001',
  viewerGroup: 'S0VIEWERS1',
} as const;

/** A full member of the workspace for the fake Slack: `name`@contoso.com unless another domain is given. */
export function slackMember(id: string, name: string, domain = 'contoso.com'): LocalSlackUser & { email: string } {
  return { id, name, email: `${name}@${domain}` };
}

export const DEFAULT_TEST_USERS: LocalSlackUser[] = [
  { id: TEST_USERS.admin, name: 'dana.lee', realName: 'Dana Lee', email: 'dana.lee@acme-learning.example' },
  { id: TEST_USERS.viewer, name: 'sam.ortiz', realName: 'Sam Ortiz', email: 'sam.ortiz@acme-learning.example' },
  { id: TEST_USERS.groupViewer, name: 'gus.park', realName: 'Gus Park', email: 'gus.park@acme-learning.example' },
  { id: TEST_USERS.nobody, name: 'nora.quinn', realName: 'Nora Quinn', email: 'nora.quinn@acme-learning.example' },
  {
    id: TEST_USERS.workspaceAdmin,
    name: 'wanda.chen',
    realName: 'Wanda Chen',
    email: 'wanda.chen@acme-learning.example',
    isAdmin: true,
  },
  { id: TEST_USERS.guest, name: 'gia.guest', realName: 'Gia Guest', isRestricted: true },
  { id: TEST_USERS.student, name: 'alex.kim', realName: 'Alex Kim', email: 'alex.kim@acme-learning.example' },
];

export interface FakeSlackOptions {
  /** Added to (or replacing, by id) DEFAULT_TEST_USERS. */
  users?: LocalSlackUser[];
  /** Default: { S0VIEWERS1: [U0GVIEW001] }. */
  usergroups?: Record<string, string[]>;
  botToken?: string;
}

export function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const users = new Map(DEFAULT_TEST_USERS.map((u) => [u.id, u]));
  for (const u of options.users ?? []) users.set(u.id, u);
  return startLocalSlack({
    users: [...users.values()],
    usergroups: options.usergroups ?? { [TEST_USERS.viewerGroup]: [TEST_USERS.groupViewer] },
    ...(options.botToken ? { botToken: options.botToken } : {}),
  });
}

/** Makes the student who holds `license` a Slack user `id`: their e-mail, their name, the e-mail's local part as username. */
export function holderInSlack(slack: FakeSlack, id: string, license: License): void {
  slack.setUser({
    id,
    name: license.student.email.split('@')[0] ?? id,
    realName: license.student.name,
    email: license.student.email,
  });
}
