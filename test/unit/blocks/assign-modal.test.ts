import { describe, expect, it } from 'vitest';
import { buildAssignModal, buildAssignPoolSuggestions } from '../../../src/changes/blocks/assign-modal.js';
import { CallbackId, InputId } from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits, checkModalLimits } from '../../../src/kernel/blocks/limits.js';
import { buildOutcomeMessage, buildOutcomeModal, buildWorkingModal } from '../../../src/kernel/blocks/outcome.js';
import { inDays, makePool, mrkdwnText, NOW } from '../../support/fixtures.js';

const HOSTILE = '<!channel> & <@U0BOSS0001> ';
const optionsOf = (view: ReturnType<typeof buildAssignModal>) => {
  const block = view.blocks.find((b) => b.block_id === InputId.assignPool.block);
  return block?.type === 'input' && block.element.type === 'static_select' ? block.element : undefined;
};

describe('buildAssignModal', () => {
  it('200 pools with 300-character hostile titles: a type-ahead menu, answering at most 100 options of 75 characters', () => {
    const pools = Array.from({ length: 200 }, (_, i) =>
      makePool({
        id: String(1000 + i),
        course: { id: 'c', title: `${HOSTILE}${'Advanced DAX '.repeat(25)}${i}` },
        availableLicenses: i % 3,
        transferable: i % 2 === 0,
      }),
    );
    const view = buildAssignModal({ pools, prefill: { poolId: '1199' }, privateMetadata: '{}', now: NOW });
    expect(checkModalLimits(view)).toEqual([]);
    const block = view.blocks.find((b) => b.block_id === InputId.assignPool.block);
    const select = block?.type === 'input' && block.element.type === 'external_select' ? block.element : undefined;
    expect(select?.initial_option?.value).toBe('1199');
    const { options } = buildAssignPoolSuggestions(pools, '', NOW);
    expect(options.length).toBe(100);
    for (const o of [...options, ...(select?.initial_option ? [select.initial_option] : [])]) {
      expect(Array.from(o.text.text).length).toBeLessThanOrEqual(75);
      expect(Array.from(o.description?.text ?? '').length).toBeLessThanOrEqual(75);
    }
    expect(mrkdwnText(view)).not.toMatch(/<!channel>|<@U0BOSS/);
  });

  it('leaves out ended and full untransferable pools, offers "free a seat" for a full transferable one', () => {
    const pools = [
      makePool({ id: 'a' }),
      makePool({ id: 'ended', end: inDays(-1) }),
      makePool({ id: 'stuck', availableLicenses: 0, transferable: false }),
      makePool({ id: 'full', availableLicenses: 0 }),
    ];
    const view = buildAssignModal({ pools, prefill: { poolId: 'stuck' }, privateMetadata: '{}', now: NOW });
    expect(optionsOf(view)?.options.map((o) => o.value)).toEqual(['a', 'full']);
    expect(JSON.stringify(view)).toContain('is full and not transferable');
    expect(view.blocks.some((b) => b.block_id === InputId.assignRecycle.block)).toBe(true);
    expect(view.submit?.text).toBe('Assign');
  });

  it('no pool can give a seat: nothing to submit', () => {
    const view = buildAssignModal({
      pools: [makePool({ end: inDays(-1) })],
      prefill: {},
      privateMetadata: '{}',
      now: NOW,
    });
    expect(view.callback_id).toBe(CallbackId.changeInfo);
    expect(view.submit).toBeUndefined();
  });
});

describe('outcome views and messages', () => {
  it('stay within limits, keep a text fallback, and carry Retry assign only when asked', () => {
    const long = 'x'.repeat(5000);
    const view = buildOutcomeModal({
      title: 'A very long modal title indeed',
      tone: 'failed',
      headline: long,
      retry: true,
    });
    expect(checkModalLimits(view)).toEqual([]);
    expect(JSON.stringify(view)).toContain('retry_assign');
    expect(checkModalLimits(buildWorkingModal('Assign a license', 'Assigning'))).toEqual([]);
    expect(checkBlockKitLimits(buildOutcomeMessage({ tone: 'done', headline: long }))).toEqual([]);
  });
});
