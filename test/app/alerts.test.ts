/**
 * Daily alerts end to end: the check posts to ALERT_CHANNEL at background priority, each
 * condition once; a second app instance over the same DATA_DIR (a restart) announces nothing again;
 * "Let it end" is for admins and takes the buttons away. Tests call the scheduler; nobody waits for 09:00.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../local/sandbox/index.js';
import { startSandbox } from '../../local/sandbox/index.js';
import { ActionId, alertLicenseBlockId, DeskActionId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { startTestApp, TEST_USERS, type TestApp } from '../support/app-harness.js';
import { clickLetItEnd } from '../support/change-flow.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { allText, buttons } from '../support/fixtures.js';

const CHANNEL = 'C0LICALERT';
const NOW = new Date('2026-11-21T10:00:00Z');
const now = () => NOW;
let dir: string;
let sandbox: RunningSandbox;
let slack: FakeSlack;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-alerts-'));
  sandbox = await startSandbox({ host: '127.0.0.1', port: 0, now, rateLimit: { limit: 25, windowMs: 3000 } });
  slack = await startFakeSlack();
});
afterAll(async () => {
  await sandbox.close();
  await slack.close();
  await rm(dir, { recursive: true, force: true });
});

const instance = () => startTestApp({ dataDir: dir, now, useSandbox: sandbox, useSlack: slack, auditChannel: CHANNEL });
const posts = () => slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);

describe('daily alerts', () => {
  // The first instance; the restart test stops it itself, afterAll stops it otherwise (e.g. after a failure).
  let a: TestApp;
  let aRunning = false;
  const stopFirst = async () => {
    if (!aRunning) return;
    aRunning = false;
    await a.close();
  };
  beforeAll(async () => {
    a = await instance();
    aRunning = true;
  });
  afterAll(stopFirst);

  it('the first check announces full pools, pools ending, and licenses ending within 7 days', async () => {
    expect(a.desk?.scheduler).toBeDefined();
    // ALERT_CHANNEL falls back to AUDIT_CHANNEL in config; the harness passes it the same way.
    sandbox.clearRequests();
    expect(await a.desk?.scheduler?.tick()).toBe('ran');
    const sent = posts();
    const texts = sent.map((c) => allText(c.args));
    expect(texts.some((t) => t.includes('full or nearly full') && t.includes('Optimizing DAX'))).toBe(true);
    expect(
      texts.some((t) => t.includes('pool `2004`') && t.includes('within 30 days') && t.includes('lose access')),
    ).toBe(true);
    const licenses = sent.find((c) => allText(c.args).includes('within 7 days') && buttons(c.args).length > 0);
    expect(licenses).toBeDefined();
    const ids = buttons(licenses?.args).map((b) => b.action_id);
    expect(ids).toContain(DeskActionId.alertLetEnd);
    expect(ids).toContain(ActionId.licenseChangeEndDate);
    for (const c of sent) expect(checkBlockKitLimits(c.args)).toEqual([]);
    // A channel is not private: names, never e-mails; and nobody is pinged by a student's name.
    for (const t of texts) expect(t).not.toMatch(/@(contoso|fabrikam|outlook)\.com|<!channel>/);
    // Reads only, and only the list endpoints: pools and the active licenses.
    expect(sandbox.requests.every((r) => r.method === 'GET')).toBe(true);
    // The same day's tick does not run again.
    expect(await a.desk?.scheduler?.tick()).toBe('already-ran');
  });

  it('Let it end: a viewer is refused; an admin marks it acknowledged and the buttons go', async () => {
    const msg = posts().find((c) => buttons(c.args).some((b) => b.action_id === DeskActionId.alertLetEnd));
    const button = buttons(msg?.args).find((b) => b.action_id === DeskActionId.alertLetEnd);
    const licenseId = button?.value ?? '';
    // The ts Slack gave the alert, as the app kept it (the fake Slack does not record its answers).
    // The alert memory, as the app keeps it (the database's state table).
    const kept = await a.deps.desk?.alerts.state();
    const key = Object.entries(kept?.messages ?? {}).find(([, m]) => m.licenses.includes(licenseId))?.[0] ?? '';
    const ts = key.slice(CHANNEL.length + 1);
    const message = { type: 'message', ts, text: msg?.args.text, blocks: msg?.args.blocks };
    const click = (userId: string) => clickLetItEnd(a, CHANNEL, licenseId, message, userId);
    const viewer = await click(TEST_USERS.viewer);
    const refusal = await viewer.waitForResponse();
    expect(String(refusal.body.text)).toContain('Only license admins');
    expect(slack.calls.some((c) => c.method === 'chat.update')).toBe(false);
    await click(TEST_USERS.admin);
    const update = await slack.waitForCall('chat.update', (c) => c.args.channel === CHANNEL);
    const block = (update.args.blocks as { block_id?: string; type: string }[]).find(
      (b) => b.block_id === alertLicenseBlockId(licenseId),
    );
    expect(block?.type).toBe('context');
    expect(allText(block)).toContain(`<@${TEST_USERS.admin}> chose to let it end`);
    const state = await a.deps.desk?.alerts.state();
    expect(state?.acknowledged[licenseId]).toMatchObject({ by: TEST_USERS.admin });
  });

  it('after a restart over the same DATA_DIR, nothing is announced twice', async () => {
    const before = posts().length;
    await stopFirst();
    const b = await instance();
    try {
      expect(await b.desk?.scheduler?.tick()).toBe('already-ran');
      await b.desk?.scheduler?.runNow();
      expect(posts().length).toBe(before);
      // A new condition is still announced: fill pool 2007 to 90 % and run again.
      for (const n of [1, 2, 3, 4, 5]) {
        await b.licensing.pools.assign('2007', { email: `new${n}@contoso.com`, name: `New ${n}` });
      }
      await b.desk?.scheduler?.runNow();
      const fresh = posts().slice(before);
      expect(fresh).toHaveLength(1);
      expect(allText(fresh[0]?.args)).toContain('pool `2007`');
    } finally {
      await b.close();
    }
  });
});
