import { describe, expect, it } from 'vitest';
import { buildBulkFormModal } from '../../../src/bulk/blocks/bulk-form.js';
import { buildBulkProgressMessage, buildBulkResultMessages } from '../../../src/bulk/blocks/bulk-progress.js';
import { buildBulkReportModal } from '../../../src/bulk/blocks/bulk-report.js';
import type { BulkJob } from '../../../src/bulk/db/store.js';
import { parseBulkList } from '../../../src/bulk/domain/bulk-list.js';
import { planBulk } from '../../../src/bulk/domain/bulk-plan.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import { allText, inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

const HOSTILE = `<!channel> ${'Ж'.repeat(200)}`;
const lines = Array.from({ length: 500 }, (_, i) =>
  i % 5 === 0 ? `${HOSTILE}, bad${i}` : i % 7 === 0 ? `${HOSTILE}, s${i}@gmail.com` : `${HOSTILE}, s${i}@x.com`,
);

describe('bulk builders', () => {
  it('the form offers at most 100 pools and stays within a modal’s limits', () => {
    const pools = Array.from({ length: 150 }, (_, i) => makePool({ id: `${i}`, course: { id: 'c', title: HOSTILE } }));
    const view = buildBulkFormModal(pools, NOW);
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
  });

  it('the report of 500 hostile rows with recycling stays within limits and pings nobody', () => {
    const toFree = Array.from({ length: 400 }, (_, i) =>
      makeLicense({ id: `${i}`, start: inDays(-i - 1), student: { id: `${i}`, name: HOSTILE, email: 'x@x.com' } }),
    );
    const plan = planBulk({
      rows: parseBulkList([lines.join('\n')]).rows,
      pool: makePool({ availableLicenses: 3, licenses: 403 }),
      allowedDomains: ['x.com'],
      enrolled: new Set(['s1@x.com']),
      poolLicenses: toFree,
    });
    expect(plan.seats).toBe('recycle');
    const view = buildBulkReportModal({ id: 'd', requester: 'U1', pool: makePool(), plan, createdAt: 0 });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    expect(allText(view)).not.toContain('<!channel>');
    expect(view.private_metadata).toBe('d');
  });

  it('progress and per-line results of a 500-row job stay within a message’s limits', () => {
    const job: BulkJob = {
      version: 1,
      id: 'j',
      requester: 'U1',
      poolId: '1',
      courseTitle: HOSTILE,
      createdAt: NOW.toISOString(),
      state: 'done',
      rows: Array.from({ length: 450 }, (_, i) => ({
        line: i + 1,
        email: `s${i}@x.com`,
        name: HOSTILE,
        state: 'done' as const,
        outcome: i % 2 ? ('assigned' as const) : ('refused' as const),
        detail: HOSTILE,
      })),
      notSent: Array.from({ length: 50 }, (_, i) => ({ line: 451 + i, email: HOSTILE, verdict: 'invalid-email' })),
    };
    expect(checkBlockKitLimits(buildBulkProgressMessage(job))).toEqual([]);
    const parts = buildBulkResultMessages(job);
    expect(parts.length).toBe(13);
    for (const p of parts) {
      expect(checkBlockKitLimits(p)).toEqual([]);
      expect(allText(p)).not.toContain('<!channel>');
    }
  });
});
