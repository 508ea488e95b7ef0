/**
 * Log hygiene under real traffic: a caller's field never overwrites a line's own fields (time, level,
 * message, component), and no e-mail address reaches a log line whole, whatever its
 * script: Unicode local parts, internationalised domains and punycode domains included.
 */
import { describe, expect, it } from 'vitest';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { assignState, openModal, settledView, submit } from '../support/change-flow.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const AUDIT = 'C0AUDIT0002';
const t = appPerFile('log-hygiene-', (dataDir) => startTestApp({ dataDir, auditChannel: AUDIT }));

describe('log lines keep their own fields', () => {
  it('"alerts on" logs the alert time without overwriting the line\'s timestamp', () => {
    const line = t.logs.find((l) => l.message === 'alerts on');
    expect(line).toBeDefined();
    expect(line?.time).toMatch(ISO);
    expect(line?.level).toBe('info');
    expect(line?.fields).toEqual({ time: '09:00' });
    expect(line?.timeZone).toBe('UTC');
  });

  it('every line the app wrote carries a real timestamp, a level and a message', () => {
    expect(t.logs.length).toBeGreaterThan(0);
    for (const line of t.logs) {
      expect(line.time).toMatch(ISO);
      expect(['debug', 'info', 'warn', 'error']).toContain(line.level);
      expect(typeof line.message).toBe('string');
    }
  });
});

/** Everything the app logged, where student e-mails must not appear whole. */
async function written(): Promise<string> {
  return JSON.stringify(t.logs);
}

/** Assigns through the form and returns the audit entry once its post reached the audit channel. */
async function assign(pool: string, email: string, name: string) {
  const view = await openModal(t, () => t.command(`assign ${pool}`));
  const from = t.slack.calls.length;
  await submit(t, view, assignState({ pool, email, name }));
  await settledView(t, view.id, from);
  await t.slack.waitForCall(
    'chat.postMessage',
    (c) => c.args.channel === AUDIT && t.slack.calls.indexOf(c) >= from && String(c.args.text).includes(email),
  );
  return (await t.audit.recent(1))?.[0];
}

describe('e-mail addresses in any script are masked in the log', () => {
  it('an internationalised address the licensing service refuses, quoted in the audit detail', async () => {
    // Pool 2005 takes any domain; the service refuses the IDN domain and quotes the address back.
    const entry = await assign('2005', 'josé@exämple.com', 'J. N.');
    expect(entry).toMatchObject({ action: 'assign', outcome: 'refused', studentEmail: 'josé@exämple.com' });
    expect(entry?.detail).toContain('josé@exämple.com');
    const out = await written();
    expect(out).toContain('j***@exämple.com');
    expect(out).not.toContain('josé@');
    expect(out).not.toContain('osé');
    expect(out).not.toMatch(/jos(%C3%A9|\\u00e9)/i);
  });

  it('Unicode local parts at a punycode domain, refused as already enrolled', async () => {
    const email = 'Zoë.Üntz@xn--exmple-cua.com';
    expect(await assign('2005', email, 'Z. U.')).toMatchObject({ outcome: 'done', studentEmail: email });
    // The read that would spot the enrolment fails, so the service's own rule refuses, quoting the address.
    t.sandbox.addFault({ kind: '500', method: 'GET', path: /\/student/, times: 4 });
    const refused = await assign('2005', email, 'Z. U.');
    expect(refused).toMatchObject({ outcome: 'refused' });
    expect(refused?.detail).toContain(`${email} already has an active license`);
    const out = await written();
    expect(out).toContain('Z***@xn--exmple-cua.com already has an active license');
    expect(out).not.toContain('Zoë');
    expect(out).not.toContain('Üntz');
    expect(out).not.toContain('ntz@');
  });
});
