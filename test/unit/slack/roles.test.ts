import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createRoleResolver, type RoleResolverOptions, SlackBusyError } from '../../../src/kernel/slack/roles.js';
import { type FakeSlack, startFakeSlack, TEST_USERS as U } from '../../support/fake-slack.js';

describe('createRoleResolver against the fake Slack Web API', () => {
  let slack: FakeSlack;
  let client: webApi.WebClient;
  let clock = 0;
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, warn: (m) => void warnings.push(m), error() {} };
  const resolver = (o: Partial<RoleResolverOptions>) =>
    createRoleResolver({ admins: [], viewers: [], now: () => clock, logger, ...o });
  const count = (method: string) => slack.calls.filter((c) => c.method === method).length;

  beforeAll(async () => {
    slack = await startFakeSlack({ usergroups: { S0ADMINS01: ['U0GADMIN01'], [U.viewerGroup]: [U.groupViewer] } });
    client = new webApi.WebClient('xoxb-roles', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
  });
  afterAll(() => slack.close());
  beforeEach(() => {
    slack.clear();
    warnings.length = 0;
    clock = 0;
  });

  it('admins and viewers by user id and by user group', async () => {
    const r = resolver({ admins: [U.admin, 'S0ADMINS01'], viewers: [U.viewer, U.viewerGroup] });
    expect(await r.roleOf(client, U.admin)).toBe('admin');
    expect(await r.roleOf(client, 'U0GADMIN01')).toBe('admin');
    expect(await r.roleOf(client, U.viewer)).toBe('viewer');
    expect(await r.roleOf(client, U.groupViewer)).toBe('viewer');
    expect(await r.roleOf(client, U.nobody)).toBe('none');
    // A workspace admin is nobody special once LICENSE_ADMINS is set.
    expect(await r.roleOf(client, U.workspaceAdmin)).toBe('none');
    expect(count('users.info')).toBe(0);
  });

  it('caches a group list for a minute (Tier 2), then asks again', async () => {
    const r = resolver({ admins: ['S0ADMINS01'] });
    await Promise.all([r.roleOf(client, 'U0GADMIN01'), r.roleOf(client, U.nobody), r.roleOf(client, U.viewer)]);
    expect(count('usergroups.users.list')).toBe(1);
    clock = 59_000;
    await r.roleOf(client, U.nobody);
    expect(count('usergroups.users.list')).toBe(1);
    slack.setUsergroup('S0ADMINS01', ['U0GADMIN01', U.nobody]);
    clock = 61_000;
    expect(await r.roleOf(client, U.nobody)).toBe('admin');
    expect(count('usergroups.users.list')).toBe(2);
    slack.setUsergroup('S0ADMINS01', ['U0GADMIN01']);
  });

  it('with neither list set, workspace admins and owners are admins and nobody else is let in', async () => {
    const r = resolver({});
    expect(await r.roleOf(client, U.workspaceAdmin)).toBe('admin');
    expect(await r.roleOf(client, U.admin)).toBe('none');
    expect(await r.roleOf(client, 'U0UNKNOWN1')).toBe('none');
    expect(await r.roleOf(client, U.workspaceAdmin)).toBe('admin');
    expect(count('users.info')).toBe(3);
    expect(r.whoToAsk()).toBe("one of this workspace's admins or owners");
  });

  it('caches users.info briefly, so a demoted admin loses access within 30 s', async () => {
    const r = resolver({});
    slack.setUser({ id: 'U0DEMOTED1', name: 'dee.moted', isOwner: true });
    expect(await r.roleOf(client, 'U0DEMOTED1')).toBe('admin');
    slack.setUser({ id: 'U0DEMOTED1', name: 'dee.moted' });
    clock = 10_000;
    expect(await r.roleOf(client, 'U0DEMOTED1')).toBe('admin');
    clock = 31_000;
    expect(await r.roleOf(client, 'U0DEMOTED1')).toBe('none');
  });

  it('viewers only: workspace admins stay admins, listed viewers may look', async () => {
    const r = resolver({ viewers: [U.viewer] });
    expect(await r.roleOf(client, U.workspaceAdmin)).toBe('admin');
    expect(await r.roleOf(client, U.viewer)).toBe('viewer');
    expect(await r.roleOf(client, U.nobody)).toBe('none');
  });

  it('viewers *: every full member may look, guests and bots may not', async () => {
    slack.setUser({ id: 'U0SOMEBOT1', name: 'bot', isBot: true });
    const r = resolver({ admins: [U.admin], viewers: '*' });
    expect(await r.roleOf(client, U.nobody)).toBe('viewer');
    expect(await r.roleOf(client, U.guest)).toBe('none');
    expect(await r.roleOf(client, 'U0SOMEBOT1')).toBe('none');
    expect(await r.roleOf(client, U.admin)).toBe('admin');
  });

  it('fails closed when Slack cannot answer, logs why, and does not cache the failure', async () => {
    const r = resolver({ admins: ['S0ADMINS01'] });
    slack.answer('usergroups.users.list', { ok: false, error: 'missing_scope', needed: 'usergroups:read' }, 1);
    expect(await r.roleOf(client, 'U0GADMIN01')).toBe('none');
    expect(warnings).toEqual(['role check failed; treating as no access']);
    expect(await r.roleOf(client, 'U0GADMIN01')).toBe('admin');
  });

  it('a 429 is no answer: SlackBusyError with the Retry-After, never "none", and nothing cached', async () => {
    // As src/app/app.ts builds it: a 429 surfaces at once.
    const app = new webApi.WebClient('xoxb-roles', {
      slackApiUrl: slack.apiUrl,
      retryConfig: { retries: 0 },
      rejectRateLimitedCalls: true,
    });
    const r = resolver({});
    slack.answer('users.info', { status: 429, retryAfterSec: 4 }, 1);
    const busy = await r.roleOf(app, U.workspaceAdmin).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(SlackBusyError);
    expect((busy as SlackBusyError).retryAfterSec).toBe(4);
    expect(await r.roleOf(app, U.workspaceAdmin)).toBe('admin');
    const groups = resolver({ admins: ['S0ADMINS01'] });
    slack.answer('usergroups.users.list', { status: 429, retryAfterSec: 2 }, 1);
    await expect(groups.roleOf(app, 'U0GADMIN01')).rejects.toBeInstanceOf(SlackBusyError);
    expect(await groups.roleOf(app, 'U0GADMIN01')).toBe('admin');
  });

  it('whoToAsk names the admins as mentions', () => {
    expect(resolver({ admins: [U.admin] }).whoToAsk()).toBe('<@U0MGR00001>');
    expect(resolver({ admins: [U.admin, 'S0ADMINS01', 'W0ENTADM01'] }).whoToAsk()).toBe(
      '<@U0MGR00001>, <!subteam^S0ADMINS01> or <@W0ENTADM01>',
    );
  });
});
