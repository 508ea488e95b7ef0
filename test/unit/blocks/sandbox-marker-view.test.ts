import { describe, expect, it } from 'vitest';
import { buildBulkReportModal } from '../../../src/bulk/blocks/bulk-report.js';
import { parseBulkList } from '../../../src/bulk/domain/bulk-list.js';
import { planBulk } from '../../../src/bulk/domain/bulk-plan.js';
import { buildAssignModal } from '../../../src/changes/blocks/assign-modal.js';
import { SANDBOX_MARKER, withSandboxMarkerView } from '../../../src/kernel/blocks/common.js';
import { section } from '../../../src/kernel/blocks/kit.js';
import { checkModalLimits, LIMITS } from '../../../src/kernel/blocks/limits.js';
import { modal } from '../../../src/kernel/blocks/modal-kit.js';
import { buildWorkingModal } from '../../../src/kernel/blocks/outcome.js';
import { allText, inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

const HOSTILE = `<!channel> ${'Ж'.repeat(200)}`;
const markers = (blocks: readonly unknown[]) => blocks.filter((b) => allText(b) === SANDBOX_MARKER).length;

/** The largest modal a builder makes: the bulk report of 500 hostile rows, with recycling. */
function largestBulkReport() {
  const lines = Array.from({ length: 500 }, (_, i) =>
    i % 5 === 0 ? `${HOSTILE}, bad${i}` : i % 7 === 0 ? `${HOSTILE}, s${i}@gmail.com` : `${HOSTILE}, s${i}@x.com`,
  );
  const toFree = Array.from({ length: 400 }, (_, i) =>
    makeLicense({ id: `${i}`, start: inDays(-i - 1), student: { id: `${i}`, name: HOSTILE, email: 'x@x.com' } }),
  );
  const plan = planBulk({
    rows: [...parseBulkList([lines.join('\n')]).rows, ...parseBulkList([lines.slice(0, 50).join('\n')]).rows],
    pool: makePool({ availableLicenses: 3, licenses: 403 }),
    allowedDomains: ['x.com'],
    enrolled: new Set(['s1@x.com', 's2@x.com', 's3@x.com']),
    poolLicenses: toFree,
  });
  return buildBulkReportModal({ id: 'd', requester: 'U1', pool: makePool(), plan, createdAt: 0 });
}

describe('withSandboxMarkerView', () => {
  const working = buildWorkingModal('Assign a license', 'Assigning');

  it('puts the sandbox marker on top, once, and keeps the rest of the view', () => {
    const marked = withSandboxMarkerView(working, true);
    expect(marked.blocks).toHaveLength(working.blocks.length + 1);
    expect(allText(marked.blocks[0])).toBe(SANDBOX_MARKER);
    expect(marked.blocks.slice(1)).toEqual(working.blocks);
    expect({ ...marked, blocks: working.blocks }).toEqual(working);
    expect(working.blocks).toHaveLength(2); // the input is not mutated
  });

  it('is idempotent', () => {
    const once = withSandboxMarkerView(working, true);
    const twice = withSandboxMarkerView(once, true);
    expect(twice).toEqual(once);
    expect(markers(twice.blocks)).toBe(1);
  });

  it('leaves the view as it is outside sandbox mode', () => {
    expect(withSandboxMarkerView(working, false)).toBe(working);
  });

  it('keeps extra properties such as external_id', () => {
    const marked = withSandboxMarkerView({ ...working, external_id: 'bulk-check-1' }, true);
    expect(marked.external_id).toBe('bulk-check-1');
  });

  it('the largest modal the builders make (bulk report, 550 hostile rows) stays within limits when marked', () => {
    const report = largestBulkReport();
    // Far below the 100-block limit: the marker never costs one of the report's own blocks.
    expect(report.blocks.length).toBeLessThan(LIMITS.viewBlocks - 1);
    const marked = withSandboxMarkerView(report, true);
    expect(marked.blocks).toHaveLength(report.blocks.length + 1);
    expect(allText(marked.blocks[0])).toBe(SANDBOX_MARKER);
    expect(checkModalLimits(marked)).toEqual([]);
  });

  it('the assign form with 150 hostile pools stays within limits when marked', () => {
    const pools = Array.from({ length: 150 }, (_, i) =>
      makePool({ id: `${i}`, availableLicenses: 0, transferable: true, course: { id: 'c', title: HOSTILE } }),
    );
    const form = buildAssignModal({ pools, prefill: { poolId: '149' }, privateMetadata: '{}', now: NOW });
    const marked = withSandboxMarkerView(form, true);
    expect(allText(marked.blocks[0])).toBe(SANDBOX_MARKER);
    expect(checkModalLimits(marked)).toEqual([]);
  });

  it('a view with 99 blocks gets the marker as its 100th; a full one loses none of its blocks', () => {
    const blocks = (n: number) => Array.from({ length: n }, (_, i) => section(`line ${i}`));
    const almost = withSandboxMarkerView(modal({ callbackId: 'x', title: 'T', blocks: blocks(99) }), true);
    expect(almost.blocks).toHaveLength(LIMITS.viewBlocks);
    expect(allText(almost.blocks[0])).toBe(SANDBOX_MARKER);
    expect(checkModalLimits(almost)).toEqual([]);
    const full = modal({ callbackId: 'x', title: 'T', blocks: blocks(100) });
    expect(withSandboxMarkerView(full, true)).toBe(full);
    expect(checkModalLimits(withSandboxMarkerView(full, true))).toEqual([]);
  });
});
