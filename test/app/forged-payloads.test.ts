/**
 * What a click or a form carries back is a hint, never authority. A license admin's client can send
 * any private_metadata and any button value; each change flow applies its rules to fresh reads when
 * the payload arrives, sends no write when one fails, and says why in one clear sentence. Every
 * payload here is forged (signed like Slack signs it, but never shown by the app).
 */
import { describe, expect, it } from 'vitest';
import { alertLicenseBlockId, CallbackId, ChangeActionId } from '../../src/kernel/blocks/ids.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import {
  clickLetItEnd,
  dayFromToday,
  extendState,
  recycleState,
  settledView,
  submit,
  textOf,
  writes,
} from '../support/change-flow.js';
import { callSandbox } from '../support/sandbox.js';

const t = appPerFile('forged-payloads-', () => startTestApp());

let seq = 0;
const isActive = (id: string) => t.sandbox.inspect.license(id)?.active;

/** Submits a view the app never showed, and returns what the modal says once settled. */
async function forgedSubmission(callbackId: string, meta: Record<string, unknown>, state: unknown): Promise<string> {
  const id = `V0FORGED${String(++seq).padStart(2, '0')}`;
  t.sandbox.clearRequests();
  const from = t.slack.calls.length;
  const { status, ack } = await submit(
    t,
    { id, callback_id: callbackId, private_metadata: JSON.stringify(meta) },
    state,
  );
  expect(status).toBe(200);
  expect(ack.response_action).toBe('update');
  return textOf((await settledView(t, id, from)).blocks);
}

const forgedRecycle = (meta: Record<string, unknown>, choice: string) =>
  forgedSubmission(CallbackId.recycleConfirm, meta, recycleState(choice));

describe('a forged recycle confirmation: every rule on fresh reads, nothing sent when one fails', () => {
  it('a chosen license of a pool with free seats: no DELETE, no POST, the student keeps access', async () => {
    // 2001 is transferable with free seats: nothing needs to end for a newcomer.
    const text = await forgedRecycle({ p: '2001', e: 'forged.one@contoso.com', x: '4001' }, '4005');
    expect(writes(t)).toEqual([]);
    expect(isActive('4005')).toBe(true);
    expect(text).toMatch(/Pool `2001` has \d+ free seats, so no license needs to end\. Nothing was changed\./);
    expect(text).toContain('Assign without freeing a seat');
  });

  it("the default (the service's own pick) on a pool with free seats: no POST that claims to end a license", async () => {
    const text = await forgedRecycle({ p: '2001', e: 'forged.two@contoso.com', x: '4001' }, '4001');
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.student({ email: 'forged.two@contoso.com' })).toBeUndefined();
    expect(text).toContain('no license needs to end');
  });

  it('a license of an untransferable pool: no DELETE of a license that cannot be revoked', async () => {
    const text = await forgedRecycle({ p: '2002', e: 'forged.three@outlook.com', x: '4017' }, '4018');
    expect(writes(t)).toEqual([]);
    expect(isActive('4018')).toBe(true);
    expect(text).toContain('Pool `2002` is not transferable');
    expect(text).toContain('Nothing was changed.');
  });

  it('a newcomer who already holds the course: no DELETE that would end a seat for nothing', async () => {
    // alberto.rossi@contoso.com holds license 4024 of pool 2003 (Optimizing DAX).
    const text = await forgedRecycle({ p: '2003', e: 'alberto.rossi@contoso.com', x: '4024' }, '4030');
    expect(writes(t)).toEqual([]);
    expect(isActive('4030')).toBe(true);
    expect(text).toContain('alberto.rossi@contoso.com already holds an active license for this course');
  });

  it('a newcomer outside the allowed domains: no DELETE', async () => {
    const text = await forgedRecycle({ p: '2003', e: 'someone@outlook.com', x: '4024' }, '4029');
    expect(writes(t)).toEqual([]);
    expect(isActive('4029')).toBe(true);
    expect(text).toContain('its licenses can only go to addresses at contoso.com, fabrikam.com');
  });

  it('an end date after the pool ends: no DELETE', async () => {
    const text = await forgedRecycle({ p: '2003', e: 'late.end@contoso.com', d: dayFromToday(400), x: '4024' }, '4028');
    expect(writes(t)).toEqual([]);
    expect(isActive('4028')).toBe(true);
    expect(text).toContain('The end date is after the pool ends');
  });
});

describe('a forged Retry assign', () => {
  async function forgedRetry(meta: Record<string, unknown>): Promise<string> {
    const id = `V0FRETRY${String(++seq).padStart(2, '0')}`;
    t.sandbox.clearRequests();
    const from = t.slack.calls.length;
    await t.action({
      container: { type: 'view', view_id: id },
      view: { id, hash: `h-${id}`, callback_id: CallbackId.changeInfo, private_metadata: JSON.stringify(meta) },
      actions: [
        { action_id: ChangeActionId.retryAssign, block_id: 'retry', type: 'button', value: 'retry', action_ts: '1' },
      ],
    });
    return textOf((await settledView(t, id, from)).blocks);
  }

  it('naming a license that was never revoked: no POST', async () => {
    const text = await forgedRetry({ p: '2001', e: 'forged.retry@contoso.com', r: '4005' });
    expect(writes(t)).toEqual([]);
    expect(t.sandbox.inspect.student({ email: 'forged.retry@contoso.com' })).toBeUndefined();
    expect(text).toContain('License `4005` is still active, so no seat of pool `2001` was freed');
  });

  it('naming a revoked license of another pool, for a full pool: no POST', async () => {
    // 4014 is a revoked license of 2001; 2003 is full.
    const text = await forgedRetry({ p: '2003', e: 'forged.retry2@contoso.com', r: '4014' });
    expect(writes(t)).toEqual([]);
    expect(text).toContain('License `4014` is not a license of pool `2003`');
  });
});

describe('a forged change of end date', () => {
  it('the form naming a license of an untransferable pool: no PATCH', async () => {
    const text = await forgedSubmission(CallbackId.extendForm, { l: '4018' }, extendState({ date: dayFromToday(20) }));
    expect(writes(t)).toEqual([]);
    expect(text).toContain('not transferable');
    expect(text).toContain('Nothing was changed.');
  });

  it('the past-date confirmation naming a license of an untransferable pool: no PATCH, the license runs on', async () => {
    const text = await forgedSubmission(
      CallbackId.extendPastConfirm,
      { l: '4044', d: dayFromToday(-1) },
      { values: {} },
    );
    expect(writes(t)).toEqual([]);
    expect(isActive('4044')).toBe(true);
    expect(text).toContain('not transferable');
  });

  it('the form with a date after the pool end, for a license the form never showed: no PATCH', async () => {
    // 2004 ends in 21 days; 4033 is one of its licenses.
    const text = await forgedSubmission(CallbackId.extendForm, { l: '4033' }, extendState({ date: dayFromToday(60) }));
    expect(writes(t)).toEqual([]);
    expect(text).toContain('after the pool ends');
  });
});

describe('a forged "Let it end" on an alert', () => {
  const CHANNEL = 'C0FORGEALR';
  const a = appPerFile('forged-alerts-', async (dataDir) => {
    const app = await startTestApp({ dataDir, auditChannel: CHANNEL });
    await app.desk?.scheduler?.runNow();
    return app;
  });

  interface AlertFile {
    acknowledged: Record<string, unknown>;
    messages: Record<string, { licenses: string[] }>;
  }
  // The alert memory as the app keeps it (the database's state table).
  const alertFile = async () => (await a.deps.desk?.alerts.state()) as AlertFile;
  /** The ts of the license-ending alert the app posted (the fake Slack does not record its answers). */
  const postedTs = async (licenseId: string) => {
    const key = Object.entries((await alertFile()).messages).find(([, m]) => m.licenses.includes(licenseId))?.[0];
    expect(key?.startsWith(`${CHANNEL}:`)).toBe(true);
    return key?.slice(CHANNEL.length + 1) ?? '';
  };

  async function letEnd(licenseId: string, at: { ts: string; rowFor: string }) {
    const from = a.slack.calls.length;
    a.sandbox.clearRequests();
    const message = {
      type: 'message',
      ts: at.ts,
      text: 'Licenses end within 7 days',
      blocks: [{ type: 'actions', block_id: alertLicenseBlockId(at.rowFor), elements: [] }],
    };
    const click = await clickLetItEnd(a, CHANNEL, licenseId, message);
    // A refusal is told in an ephemeral reply; the real thing updates the alert instead.
    const told = await Promise.race([
      click.waitForResponse().then((p) => textOf(p.body)),
      a.slack.waitForCall('chat.update', (c) => a.slack.calls.indexOf(c) >= from).then(() => ''),
    ]);
    return { told, updates: a.slack.calls.slice(from).filter((c) => c.method === 'chat.update') };
  }

  it('on a message License Desk never posted: nothing recorded, no message rewritten', async () => {
    // 4002 ends within 3 days and was announced, but not in this message.
    const { told, updates } = await letEnd('4002', { ts: '1767225600.999999', rowFor: '4002' });
    expect(told).toContain('That button no longer works; nothing was changed.');
    expect(updates).toEqual([]);
    expect((await alertFile()).acknowledged).not.toHaveProperty('4002');
    expect(writes(a)).toEqual([]);
  });

  it('for a license the alert did not list: nothing recorded', async () => {
    // 4004 runs to its pool's end, months away: no alert named it.
    const { told, updates } = await letEnd('4004', { ts: await postedTs('4002'), rowFor: '4004' });
    expect(told).toContain('That button no longer works; nothing was changed.');
    expect(updates).toEqual([]);
    expect((await alertFile()).acknowledged).not.toHaveProperty('4004');
  });

  it("on the alert, without that license's row: nothing recorded", async () => {
    const { told, updates } = await letEnd('4002', { ts: await postedTs('4002'), rowFor: '4005' });
    expect(told).toContain('That button no longer works; nothing was changed.');
    expect(updates).toEqual([]);
    expect((await alertFile()).acknowledged).not.toHaveProperty('4002');
  });

  it('a license whose end moved since the alert: nothing recorded, the admin is told why', async () => {
    const later = dayFromToday(30);
    expect((await callSandbox(a.sandbox, 'PATCH', '/v1/license/4005', { body: { endDate: later } })).status).toBe(200);
    const { told, updates } = await letEnd('4005', { ts: await postedTs('4005'), rowFor: '4005' });
    expect(told).toContain(`No alert announced license 4005 ending on ${dayText(later)}`);
    expect(updates).toEqual([]);
    expect((await alertFile()).acknowledged).not.toHaveProperty('4005');
  });

  it('the real thing still works: the posted alert, its license, its row', async () => {
    const { updates } = await letEnd('4002', { ts: await postedTs('4002'), rowFor: '4002' });
    expect(updates).toHaveLength(1);
    expect((await alertFile()).acknowledged).toHaveProperty('4002');
  });
});
