/**
 * License Desk's own changes reach its progress records at once (docs/progress.md): after a daily pass
 * recorded two finished holders of the full, transferable pool 2003, a recycle that ends one (chosen)
 * and a recycle that ends the other (the API's own pick, `recycle: true`), both signed as Slack signs
 * them, take them off App Home's "Finished courses: seats to give back" and out of the digest at once,
 * and the newcomers count as holders, without waiting for the next pass.
 */
import { describe, expect, it } from 'vitest';
import { DeskActionId } from '../../src/kernel/blocks/ids.js';
import { createProgressStore } from '../../src/progress/db/store.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { recycleConfirmation, recycleState, settledView, submit, textOf } from '../support/change-flow.js';
import { allText, buttons } from '../support/fixtures.js';
import { openHome, progressPassOn } from '../support/progress.js';

const POOL = '2003';
const COURSE = '302';
const now = () => new Date();

const t = appPerFile('desk-own-changes-', (dataDir) => startTestApp({ dataDir, now }));

const returnable = async () =>
  buttons((await openHome(t, TEST_USERS.admin)).args.view)
    .filter((b) => b.action_id === DeskActionId.returnSeat)
    .map((b) => b.value);

/** `/licenses digest`, as the admin reads it: the lines under "Completed in transferable pools" of pool 2003. */
async function finishedInDigest(): Promise<string> {
  const reply = await (await t.command('digest')).waitForResponse((p) =>
    allText(p.body.blocks).includes('License digest'),
  );
  const text = allText(reply.body.blocks);
  const from = text.indexOf('Completed in transferable pools (');
  const list = from < 0 ? '' : text.slice(from, text.indexOf('In pools ending within', from));
  return list
    .split('\n')
    .filter((line) => line.includes(`pool \`${POOL}\``))
    .join('\n');
}

async function recycle(email: string, licenseId: string): Promise<string> {
  const { view } = await recycleConfirmation(t, email);
  const from = t.slack.calls.length;
  await submit(t, view, recycleState(licenseId));
  return textOf((await settledView(t, view.id, from)).blocks);
}

describe("License Desk's own changes in its progress records", () => {
  it("a recycle (a chosen license, then the API's own pick) takes the ended holder off App Home and the digest at once", async () => {
    const chosen = t.sandbox.inspect.license('4030');
    const oldest = t.sandbox.inspect.license('4024');
    if (!chosen?.active || !oldest?.active) throw new Error('the demo seed changed: pool 2003 needs 4024 and 4030');
    const done = new Date(Date.now() - 3_600_000).toISOString().replace('Z', '+00:00');
    for (const l of [chosen, oldest])
      t.sandbox.setProgress?.({ email: l.student.email }, COURSE, { progress: 100, completed: done });
    expect(await progressPassOn(t, now).run()).toMatchObject({ kind: 'done' });
    expect(await returnable()).toEqual(expect.arrayContaining(['4030', '4024']));
    const before = await finishedInDigest();
    expect(before).toContain(chosen.student.email);
    expect(before).toContain(oldest.student.email);

    // A chosen license ends for a newcomer: gone from Home and the digest, the newcomer held.
    expect(await recycle('fresh.one@contoso.com', '4030')).toContain('Ended license `4030`');
    expect(await returnable()).not.toContain('4030');
    expect(await finishedInDigest()).not.toContain(chosen.student.email);
    const store = createProgressStore(
      t.records ??
        (() => {
          throw new Error('no records');
        })(),
    );
    const held = await store.holders({ poolId: POOL });
    expect(held.map((h) => h.studentEmail)).toContain('fresh.one@contoso.com');
    expect(held.map((h) => h.licenseId)).not.toContain('4030');

    // The default: `recycle: true` ends the pool's oldest license, 4024, gone at once too.
    expect(await recycle('fresh.two@contoso.com', '4024')).toContain('Assigned license');
    expect(t.sandbox.inspect.license('4024')?.active).toBe(false);
    expect(await returnable()).not.toContain('4024');
    expect(await finishedInDigest()).not.toContain(oldest.student.email);
    const after = await store.holders({ poolId: POOL });
    expect(after.map((h) => h.studentEmail)).toContain('fresh.two@contoso.com');
    // As many holders as the pool has seats in use, as the licensing service counts them.
    expect(after).toHaveLength(t.sandbox.inspect.pool(POOL)?.assignedLicenses ?? -1);
  });
});
