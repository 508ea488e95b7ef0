/**
 * The local demo's daily alert check, end to end: `npm start` with nothing configured (the in-process
 * sandbox, the local Slack double, the console), the console's "Run the daily alert check now", and
 * what lands in #license-alerts (the console's record of the Slack calls). A check that finds nothing
 * new says so, with when the last alerts went out; a restart on fresh sandbox data starts with fresh
 * alert memory, and never touches DATA_DIR/alerts.json (a real deployment's memory).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../local/slack/demo.js';
import { type ConsoleMessage, consoleState } from '../support/console-state.js';
import { allText } from '../support/fixtures.js';
import { type MainProcess, runMain } from '../support/run-main.js';

const ALERTS = 'C0DEMOALRT';

const alertPosts = (messages: ConsoleMessage[]) => messages.filter((m) => m.channel === ALERTS && !m.ephemeralFor);

describe('the local demo: the daily alert check', () => {
  let dir: string;
  // What a real deployment remembers, in the same DATA_DIR: the demo must leave it alone.
  const realMemory = `${JSON.stringify({ version: 1, sent: { 'pool-full:9999': '2026-01-01T09:00:00.000Z' }, acknowledged: {} })}\n`;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'desk-demo-alerts-'));
    await writeFile(join(dir, 'alerts.json'), realMemory);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** npm start over `dir`; resolves once the start-up alert check (ALERT_TIME 00:00: always due) is done. */
  async function startDemo(): Promise<{ main: MainProcess; base: string; posted: number }> {
    const main = runMain({ PORT: '0', LOG_LEVEL: 'info', DATA_DIR: dir, ALERT_TIME: '00:00' });
    const [, port] = await main.waitFor(/Local console \(plays Slack in your browser\): http:\/\/localhost:(\d+)\//);
    const [, posted] = await main.waitFor(/"message":"alert check done".*?"messages":(\d+)/, 20_000);
    return { main, base: `http://localhost:${port}/`, posted: Number(posted) };
  }
  const stop = async (main: MainProcess) => {
    main.child.kill('SIGTERM');
    await main.exited;
  };

  it('run now with nothing new: the person is told so in #license-alerts, with when the last alerts went out', async () => {
    const { main, base, posted } = await startDemo();
    try {
      expect(posted).toBeGreaterThan(0);
      const before = await consoleState(base, DEMO_USERS.admin);
      const count = alertPosts(before.messages).length;
      expect(count).toBe(posted);
      const res = await fetch(`${base}console/alerts-now`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ user: DEMO_USERS.admin }),
      });
      expect(await res.json()).toEqual({ ok: true });
      const after = await consoleState(base, DEMO_USERS.admin);
      // Nothing posted again for everyone; one answer, only for the person who ran it.
      expect(alertPosts(after.messages)).toHaveLength(count);
      const told = after.messages.filter((m) => m.channel === ALERTS && m.ephemeralFor === DEMO_USERS.admin);
      expect(told).toHaveLength(1);
      const text = allText(told[0]);
      expect(text).toContain('found nothing new to announce');
      expect(text).toMatch(
        /The last alerts went out <!date\^\d+\^\{date_short\} at \{time\}\|[A-Z][a-z]{2} \d{1,2}, \d{4} at/,
      );
      // Someone else sees no such answer.
      const other = await consoleState(base, DEMO_USERS.viewer);
      expect(other.messages.filter((m) => m.channel === ALERTS && m.ephemeralFor)).toEqual([]);
    } finally {
      await stop(main);
    }
  }, 60_000);

  it('a restart on fresh sandbox data starts with fresh alert memory; alerts.json is never touched', async () => {
    const { main, posted } = await startDemo();
    await stop(main);
    expect(posted).toBeGreaterThan(0);
    expect(await readFile(join(dir, 'alerts.json'), 'utf8')).toBe(realMemory);
  }, 60_000);
});
