/**
 * Whom a refusal names and what someone without a role is offered, end to end: signed commands, App
 * Home events and clicks in, the replies, modals, DMs and views.publish calls the fake Slack records.
 * A refusal names the configured license admins (user and user-group mentions), or says "the
 * workspace's admins or owners" when LICENSE_ADMINS is unset; `/licenses help` tells a member who may
 * ask for a course what they may do, and anyone else one sentence; App Home offers "Request a course"
 * only to someone who may ask for one.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeskActionId, RequestActionId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import type { ResponseUrlPost, SlackCall } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';
import { selfServiceTo } from '../support/requests.js';

const ADMIN_GROUP = 'S0ADMINS01';
const NAMED = `<@${TEST_USERS.admin}> or <!subteam^${ADMIN_GROUP}>`;
const textOf = (post: ResponseUrlPost) => allText(post.body);

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-refusal-words-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('LICENSE_ADMINS set: refusals name them', () => {
  const t = appPerFile('refusal-words-', () =>
    startTestApp({
      admins: [TEST_USERS.admin, ADMIN_GROUP],
      dataDir: join(dir, 'named'),
      ...selfServiceTo('C0REQUESTS1'),
    }),
  );

  const publishedFor = async (user: string): Promise<SlackCall> => {
    const from = t.slack.calls.length;
    await t.event({ type: 'app_home_opened', user, channel: 'D0HOME0009', tab: 'home' });
    return t.slack.waitForCall(
      'views.publish',
      (c) => c.args.user_id === user && t.slack.calls.indexOf(c) >= from,
      10_000,
    );
  };

  it('a member with no role asking for help is told what they may do: request and requests', async () => {
    const r = await t.command('help', { userId: TEST_USERS.nobody });
    const text = textOf(await r.waitForResponse());
    expect(text).toContain('/licenses request');
    expect(text).toContain('/licenses requests');
    expect(text).toContain('Request a course');
    expect(text).not.toContain("don't have access");
    // Nothing they may not do, and whom to ask for more.
    expect(text).not.toContain('/licenses pools');
    expect(text).not.toContain('/licenses assign');
    expect(text).toContain(NAMED);
  });

  it('a member with no role typing nonsense gets the same help, with what was wrong', async () => {
    const r = await t.command('frobnicate', { userId: TEST_USERS.nobody });
    const text = textOf(await r.waitForResponse());
    expect(text).toContain('frobnicate');
    expect(text).toContain('/licenses request');
    expect(text).not.toContain("don't have access");
  });

  it('a guest asking for help: one sentence, naming the admins', async () => {
    const r = await t.command('help', { userId: TEST_USERS.guest });
    const post = await r.waitForResponse();
    const text = textOf(post);
    expect(text).toContain('nothing you can do in License Desk');
    expect(text).toContain(NAMED);
    expect(text).not.toContain('/licenses request');
    expect((post.body.blocks as unknown[]).length).toBeLessThanOrEqual(2);
  });

  it('a member with no role asking for pools is refused, naming the admins, and told how to ask for a course', async () => {
    const r = await t.command('pools', { userId: TEST_USERS.nobody });
    const text = textOf(await r.waitForResponse());
    expect(text).toContain(`Please ask ${NAMED} to add you.`);
    expect(text).toContain('/licenses request');
  });

  it('Bulk assign from the Home tab by a viewer: the refusal names the admins (as mentions, not escaped)', async () => {
    const from = t.slack.calls.length;
    await t.action(
      {
        container: { type: 'view', view_id: 'VHOMEBULK01' },
        response_url: undefined,
        actions: [{ action_id: DeskActionId.bulkOpen, block_id: 'home_actions', type: 'button', value: 'bulk' }],
      },
      { userId: TEST_USERS.viewer },
    );
    const open = await t.slack.waitForCall('views.open', (c) => t.slack.calls.indexOf(c) >= from);
    const text = allText(open.args.view);
    expect(text).toContain('Only license admins');
    expect(text).toContain(NAMED);
    expect(text).not.toContain('&lt;@');
  });

  it('App Home: a guest is not offered "Request a course"; a member with no role is', async () => {
    const guest = await publishedFor(TEST_USERS.guest);
    expect(allText(guest.args.view)).toContain(NAMED);
    expect(buttons(guest.args.view).map((b) => b.action_id)).not.toContain(RequestActionId.open);
    const member = await publishedFor(TEST_USERS.nobody);
    expect(buttons(member.args.view).map((b) => b.action_id)).toEqual([RequestActionId.open]);
  });
});

describe('LICENSE_ADMINS unset: refusals say the workspace admins and owners decide', () => {
  const t = appPerFile('refusal-words-', () => startTestApp({ admins: [], viewers: [] }));

  it('a member with no role is told to ask one of the workspace admins or owners', async () => {
    const r = await t.command('pools', { userId: TEST_USERS.nobody });
    const text = textOf(await r.waitForResponse());
    expect(text).toContain("Please ask one of this workspace's admins or owners to add you.");
  });

  it('with course requests not set up, help for a member with no role is one sentence', async () => {
    const r = await t.command('help', { userId: TEST_USERS.nobody });
    const text = textOf(await r.waitForResponse());
    expect(text).toContain(
      "nothing you can do in License Desk yet: please ask one of this workspace's admins or owners",
    );
    expect(text).not.toContain('/licenses request');
  });

  it('App Home without course requests set up offers no "Request a course"', async () => {
    await t.event({ type: 'app_home_opened', user: TEST_USERS.nobody, channel: 'D0HOME0008', tab: 'home' });
    const call = await t.slack.waitForCall('views.publish', (c) => c.args.user_id === TEST_USERS.nobody);
    expect(buttons(call.args.view)).toEqual([]);
  });
});
