/**
 * An approved ask for more time survives SIGKILL of the real process: a learner asks with the signed
 * form, a license admin clicks Approve on the card, the licensing service applies the end-date write
 * but its answer never reaches License Desk, the process is killed, and the next start on the same
 * DATA_DIR settles the write by reading the license back (never by sending it again). What is
 * asserted is what people see: one write, the new end date, the learner told once, the card approved.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildDemoData } from '../../local/sandbox/index.js';
import { ExtensionActionId, ExtensionCallbackId, ExtensionInputId } from '../../src/kernel/blocks/ids.js';
import { DAY_MS } from '../../src/kernel/domain/time.js';
import { textOf } from '../support/change-flow.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { buttons } from '../support/fixtures.js';
import { type KilledDesk, startKilledDesk } from '../support/kill-restart.js';
import { until } from '../support/until.js';

const CHANNEL = 'C0REQUESTS1';
const ADMIN = TEST_USERS.admin;
const LEARNER = 'U0LEARN001';
/** Mastering DAX, pool 2001 (transferable, ends in 165 days): the demo's license that ends in 40 days. */
const LICENSE = '4012';
const seed = buildDemoData(new Date());
const studentId = seed.licenses.find((l) => l.id === LICENSE)?.studentId;
const EMAIL = seed.students.find((s) => s.id === studentId)?.email ?? '';

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({
    env: { REQUESTS_CHANNEL: CHANNEL },
    users: [{ id: LEARNER, name: 'learner.one', realName: 'Learner One', email: EMAIL }],
  });
});

afterEach(async () => {
  await desk?.close();
});

const endOf = () => desk.sandbox.inspect.license(LICENSE)?.end.slice(0, 10);
const patches = () => desk.sandbox.requests.filter((q) => q.method === 'PATCH' && q.url === `/v1/license/${LICENSE}`);
const cardCopies = () =>
  desk.slack.calls.filter(
    (c) =>
      (c.method === 'chat.postMessage' || c.method === 'chat.update') &&
      c.args.channel === CHANNEL &&
      !c.args.thread_ts &&
      textOf(c.args.blocks).includes(`<@${LEARNER}> asks for more time`),
  );

/** The learner asks with the signed form until `day`; the card reaches the channel: its request id. */
async function askUntil(day: string): Promise<string> {
  await desk.start();
  const state = {
    values: {
      [ExtensionInputId.endDate.block]: {
        [ExtensionInputId.endDate.action]: { type: 'datepicker', selected_date: day },
      },
      [ExtensionInputId.reason.block]: {
        [ExtensionInputId.reason.action]: { type: 'plain_text_input', value: 'Exams' },
      },
    },
  };
  const view = { id: 'VMORETIME1', callback_id: ExtensionCallbackId.form, private_metadata: LICENSE, state };
  expect((await desk.submit(view, LEARNER)).status).toBe(200);
  await until('the card to reach the requests channel', () => cardCopies().length > 0, 15_000);
  await until(
    'the learner to be told it was sent',
    () => desk.dmsTo(LEARNER, 'was sent to the license admins').length > 0,
    15_000,
  );
  return String(buttons(cardCopies()[0]?.args).find((b) => b.action_id === ExtensionActionId.approve)?.value);
}

const holdPatch = (phase: 'before' | 'after') =>
  desk.licensing.hold({ method: 'PATCH', path: new RegExp(`^/v1/license/${LICENSE}$`), phase });

describe('an approved ask for more time, the process killed during its end-date write', () => {
  it('killed before the write reached the service: read back, nothing changed, the ask waits again, the approver told once', async () => {
    const before = endOf();
    const id = await askUntil(new Date(Date.now() + 60 * DAY_MS).toISOString().slice(0, 10));
    const hold = holdPatch('before');
    await desk.click(ExtensionActionId.approve, id, ADMIN, { channel: CHANNEL, responseId: 'approve' });
    await until('the end-date write to be held before the service', () => hold.request !== undefined, 15_000);

    await desk.killAndRestart();
    await until(
      'the approver to hear the write did not go through',
      () => desk.dmsTo(ADMIN, 'did not go through').length > 0,
      60_000,
      200,
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(patches()).toEqual([]);
    expect(endOf()).toBe(before);
    expect(desk.dmsTo(ADMIN, 'did not go through')).toHaveLength(1);
    expect(desk.dmsTo(LEARNER, 'You have more time')).toEqual([]);
    const card = cardCopies().at(-1)?.args;
    expect(textOf(card?.blocks)).toContain('The last approval changed nothing');
    expect(buttons(card).map((b) => b.action_id)).toContain(ExtensionActionId.approve);
  }, 120_000);

  it('killed with the write applied and its answer lost: the next start reads the license back, one write, the learner told once', async () => {
    const until60 = new Date(Date.now() + 60 * DAY_MS).toISOString().slice(0, 10);
    const id = await askUntil(until60);

    const hold = holdPatch('after');
    const clicked = await desk.click(ExtensionActionId.approve, id, ADMIN, { channel: CHANNEL, responseId: 'approve' });
    expect(clicked.status).toBe(200);
    await until('the end-date write to be applied and its answer held', () => hold.request !== undefined, 15_000);
    expect(endOf()).toBe(until60);
    expect(desk.dmsTo(LEARNER, 'You have more time')).toEqual([]);

    await desk.killAndRestart();
    await until(
      'the learner to be told of the new end date',
      () => desk.dmsTo(LEARNER, 'You have more time').length > 0,
      60_000,
      200,
    );
    await until(
      'the card to show the approval',
      () => textOf(cardCopies().at(-1)?.args.blocks).includes(`Approved by <@${ADMIN}>`),
      15_000,
    );
    // Given a moment for a second write or DM to show: none comes.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(patches()).toHaveLength(1);
    expect(endOf()).toBe(until60);
    expect(desk.dmsTo(LEARNER, 'You have more time')).toHaveLength(1);
    expect(desk.repeatedDms(LEARNER)).toEqual([]);
    expect(buttons(cardCopies().at(-1)?.args).map((b) => b.action_id)).not.toContain(ExtensionActionId.approve);
    expect(desk.dmsTo(ADMIN, 'went through after all').length).toBeLessThanOrEqual(1);
  }, 120_000);
});
