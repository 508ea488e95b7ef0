/**
 * Where "Extend" / "Change end date" is offered, end to end. A license can never end after its
 * pool, so one that already ends with its pool can only end earlier: the expiring list and the
 * alerts offer no Extend for it (its pool's alert tells of it), the license view says only an earlier
 * date is possible, and the modal (opened by any button, however old) says so and asks for an earlier
 * date rather than for "a quick choice or a date" it does not show.
 *
 * The clock runs 16 days after the sandbox was seeded: pool 2004 (Data Modeling) then ends in 5
 * days, and its licenses end with it; one of them is first moved to end earlier, so it can be extended.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActionId, CallbackId, InputId } from '../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../src/kernel/blocks/limits.js';
import { dayText } from '../../src/kernel/domain/end-date.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import type { License } from '../../src/kernel/domain/types.js';
import { startTestApp, type TestApp } from '../support/app-harness.js';
import { extendState, openModal, submit, textOf, writes } from '../support/change-flow.js';
import { allText, buttons } from '../support/fixtures.js';
import { callSandbox } from '../support/sandbox.js';

const CHANNEL = 'C0LICALERT';
const POOL = '2004';
let clock = Date.now();
const now = () => new Date(clock);
let dir: string;
let t: TestApp;
let withPool: License;
let earlier: License;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'desk-extend-offers-'));
  // The daily check is due from midnight: the clock is today's, whatever the hour the suite runs at.
  t = await startTestApp({ dataDir: dir, now, sandbox: { now }, auditChannel: CHANNEL, alerts: { time: '00:00' } });
  const poolEnd = t.sandbox.inspect.pool(POOL)?.end.slice(0, 10);
  const running = (t.sandbox.inspect.licenses({ poolId: POOL }) ?? []).filter((l) => l.end.slice(0, 10) === poolEnd);
  expect(running.length).toBeGreaterThan(2);
  withPool = running[0] as License;
  earlier = running[1] as License;
  clock += 16 * DAY_MS;
  // One license is moved to end two days before its pool: a later end is possible for it.
  const day = new Date(clock + 3 * DAY_MS).toISOString().slice(0, 10);
  expect((await callSandbox(t.sandbox, 'PATCH', `/v1/license/${earlier.id}`, { body: { endDate: day } })).status).toBe(
    200,
  );
});
afterAll(async () => {
  await t?.close();
  await rm(dir, { recursive: true, force: true });
});

const isFinal = (p: { body: { text?: unknown } }) => !String(p.body.text).includes('Working on it');

/** The section (and its accessory) naming a license in a message or view. */
const rowOf = (blocks: unknown, licenseId: string) =>
  ((blocks ?? []) as { text?: { text?: string }; accessory?: { action_id?: string } }[]).find((b) =>
    b.text?.text?.includes(`license \`${licenseId}\``),
  );

describe('where a change of end date is offered', () => {
  it('/licenses expiring: Extend only where a later end is possible; a license ending with its pool says why', async () => {
    const shown = await (await t.command('expiring 30')).waitForResponse(isFinal);
    expect(checkBlockKitLimits(shown.body)).toEqual([]);
    const mine = rowOf(shown.body.blocks, withPool.id);
    expect(mine?.text?.text).toContain('Ends with its pool, so it cannot be extended');
    expect(mine?.accessory).toBeUndefined();
    const other = rowOf(shown.body.blocks, earlier.id);
    expect(other?.accessory?.action_id).toBe(ActionId.licenseChangeEndDate);
    expect(other?.text?.text).not.toContain('Ends with its pool');
  });

  it('the alerts: Extend on a license ending before its pool; one ending with its pool is told by the pool alert, without Extend', async () => {
    expect(await t.desk?.scheduler?.tick()).toBe('ran');
    const posted = t.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL);
    for (const c of posted) expect(checkBlockKitLimits(c.args)).toEqual([]);
    const poolAlert = posted.find(
      (c) => allText(c.args).includes(`pool \`${POOL}\``) && allText(c.args).includes('lose access'),
    );
    expect(poolAlert).toBeDefined();
    expect(buttons(poolAlert?.args).map((b) => b.action_id)).not.toContain(ActionId.licenseChangeEndDate);
    const extendable = posted
      .flatMap((c) => buttons(c.args))
      .filter((b) => b.action_id === ActionId.licenseChangeEndDate);
    expect(extendable.map((b) => b.value)).toEqual([earlier.id]);
  });

  it('the license view offers Change end date and says only an earlier date is possible', async () => {
    const shown = await (await t.command(`show ${withPool.id}`)).waitForResponse(isFinal);
    expect(buttons(shown.body).map((b) => b.action_id)).toContain(ActionId.licenseChangeEndDate);
    expect(allText(shown.body.blocks)).toContain('can only move earlier, not later');
    const other = await (await t.command(`show ${earlier.id}`)).waitForResponse(isFinal);
    expect(allText(other.body.blocks)).not.toContain('can only move earlier');
  });

  it('an old Extend button opens a form that says only an earlier date is possible; an empty submit says the same', async () => {
    const view = await openModal(t, () => t.clickButton(ActionId.licenseChangeEndDate, withPool.id));
    expect(view.callback_id).toBe(CallbackId.extendForm);
    const text = textOf(view.blocks);
    expect(text).toContain(
      'already ends with its pool, so it cannot be extended: only an earlier end date is possible',
    );
    expect(text).toContain('Earlier end date');
    expect(view.blocks.some((b) => b.block_id === InputId.extendQuick.block)).toBe(false);
    t.sandbox.clearRequests();
    const { ack } = await submit(t, view, extendState({}));
    expect(ack.response_action).toBe('errors');
    const error = String((ack.errors as Record<string, string>)[InputId.extendDate.block]);
    expect(error).toContain(`Pick a date before ${dayText(withPool.end)}`);
    expect(error).toContain('no later date is possible');
    expect(error).not.toContain('quick choice');
    expect(writes(t)).toEqual([]);
  });

  it('an old Extend button on a license that can no longer change: the modal says why, with nothing to submit', async () => {
    expect((await callSandbox(t.sandbox, 'DELETE', `/v1/license/${earlier.id}`)).status).toBe(200);
    const view = await openModal(t, () => t.clickButton(ActionId.licenseChangeEndDate, earlier.id));
    expect(view.callback_id).toBe(CallbackId.changeInfo);
    expect(view.submit).toBeUndefined();
    expect(textOf(view.blocks)).toContain("its end date can't be changed, because it is no longer active");
  });
});
