/**
 * More than 100 pools: the assign and bulk-assign forms offer them in a type-ahead menu
 * (external_select), whose options come from a signed block_suggestion, matched on course title, pool
 * label or id ignoring case and accents, at most 100; choosing one from it assigns.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../local/sandbox/types.js';
import { BulkInputId, DeskCallbackId, InputId } from '../../src/kernel/blocks/ids.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { assignState, openModal, settledView, submit, textOf } from '../support/change-flow.js';

const DAY = 86_400_000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace(/\.\d+Z$/, '+00:00');
const TITLES = ['SQL Server Basics', 'Advanced SQL Querying', 'Écriture SQL pour débutants'];

/** 150 pools (7000-7149), five per course; three of the 30 courses have SQL in their title. */
function manyPools(): SandboxData {
  const courses = Array.from({ length: 30 }, (_, i) => ({
    id: String(600 + i),
    title: TITLES[i] ?? `Course ${i} Modeling`,
  }));
  const pools = Array.from({ length: 150 }, (_, i) => ({
    id: String(7000 + i),
    course: courses[i % 30] ?? { id: '600', title: '' },
    start: iso(-30),
    end: iso(100 + i),
    transferable: true,
    licenses: 10,
  }));
  return {
    me: { id: '1', name: 'Org', email: 'm@contoso.com', allowedDomainsForTransferableLicenses: ['contoso.com'] },
    courses,
    pools,
    students: [],
    licenses: [],
    progress: [],
  };
}

type Element = { type: string; action_id: string; min_query_length?: number; options?: unknown[] };
const poolElement = (view: { blocks: Record<string, unknown>[] }, blockId: string) =>
  (view.blocks.find((b) => b.block_id === blockId) as { element: Element } | undefined)?.element;

describe('pool menus beyond 100 pools', () => {
  const t = appPerFile('desk-pool-menu-', (dataDir) => startTestApp({ dataDir, sandbox: { seed: manyPools() } }));

  /** A block_suggestion signed as Slack signs it; the ack body is the menu's options. */
  async function suggest(actionId: string, blockId: string, value: string, userId: string = TEST_USERS.admin) {
    const r = await t.action(
      {
        type: 'block_suggestion',
        action_id: actionId,
        block_id: blockId,
        value,
        container: { type: 'view', view_id: 'V0E2EVIEW1' },
        view: { id: 'V0E2EVIEW1', type: 'modal', callback_id: 'x', state: { values: {} } },
      },
      { userId },
    );
    expect(r.status).toBe(200);
    return (JSON.parse(r.body) as { options: { text: { text: string }; value: string; description?: unknown }[] })
      .options;
  }

  it('the assign form has a type-ahead menu; "sql" answers the 15 SQL pools only, labelled as in a static menu', async () => {
    const view = await openModal(t, () => t.command('assign'));
    const element = poolElement(view, InputId.assignPool.block);
    expect(element?.type).toBe('external_select');
    expect(element?.action_id).toBe(InputId.assignPool.action);
    expect(element?.options).toBeUndefined();

    const options = await suggest(InputId.assignPool.action, InputId.assignPool.block, 'sql');
    expect(options).toHaveLength(15);
    for (const o of options) expect(o.text.text).toMatch(/SQL .*· pool 7\d{3}$/);
    expect(options.map((o) => o.value)).toContain('7002'); // Écriture SQL…
    // Accents and case do not matter; the pool whose id is typed comes first.
    expect((await suggest(InputId.assignPool.action, InputId.assignPool.block, 'ECRITURE débutants')).length).toBe(5);
    expect((await suggest(InputId.assignPool.action, InputId.assignPool.block, '7042'))[0]?.value).toBe('7042');
    // Nothing typed yet: the first 100, never more.
    expect(await suggest(InputId.assignPool.action, InputId.assignPool.block, '')).toHaveLength(100);
    // Someone who may not assign gets no pools.
    expect(await suggest(InputId.assignPool.action, InputId.assignPool.block, 'sql', TEST_USERS.viewer)).toEqual([]);
  });

  it('a pool chosen from the type-ahead assigns', async () => {
    const view = await openModal(t, () => t.command('assign'));
    const [choice] = await suggest(InputId.assignPool.action, InputId.assignPool.block, 'advanced sql');
    expect(choice?.value).toBe('7001');
    const state = assignState({ pool: '7001', email: 'ada.new@contoso.com' });
    const pool = state.values[InputId.assignPool.block]?.[InputId.assignPool.action] as Record<string, unknown>;
    pool.type = 'external_select';
    const from = t.slack.calls.length;
    const answer = await submit(t, view, state);
    expect(answer.status).toBe(200);
    const result = await settledView(t, view.id, from);
    expect(textOf(result.blocks)).toContain('ada.new@contoso.com');
    expect(t.sandbox.inspect.pool('7001')?.assignedLicenses).toBe(1);
    expect(t.sandbox.inspect.student({ email: 'ada.new@contoso.com' })?.courses.map((c) => c.poolId)).toEqual(['7001']);
  });

  it('the bulk form has the type-ahead menu too, answered from the bulk menu', async () => {
    const mark = t.slack.calls.length;
    await t.command('bulk');
    const update = await t.slack.waitForCall('views.update', (c) => t.slack.calls.indexOf(c) >= mark, 10_000);
    const view = update.args.view as { callback_id: string; blocks: Record<string, unknown>[] };
    expect(view.callback_id).toBe(DeskCallbackId.bulkForm);
    expect(poolElement(view, BulkInputId.pool.block)?.type).toBe('external_select');
    const options = await suggest(BulkInputId.pool.action, BulkInputId.pool.block, 'server basics');
    expect(options.map((o) => o.value)).toEqual(['7000', '7030', '7060', '7090', '7120']);
    expect(options[0]?.text.text).toBe('SQL Server Basics · pool 7000');
  });
});
