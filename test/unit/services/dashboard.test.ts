import { describe, expect, it } from 'vitest';
import { createDashboard } from '../../../src/digest/services/dashboard.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { turnCounter } from '../../support/event-loop.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { inDays, makeLicense, makePool } from '../../support/fixtures.js';

const NOW = new Date('2026-03-02T10:00:00Z');

function dashboardWith(assigned: number, pageSize: number, allowance: number) {
  const infos: { message: string; fields: Record<string, unknown> | undefined }[] = [];
  const logger: Logger = {
    debug() {},
    info: (message, fields) => infos.push({ message, fields }),
    warn() {},
    error() {},
  };
  const licensing = createFakeLicensing({ pools: [makePool({ assignedLicenses: assigned })], pageSize });
  const dashboard = createDashboard({
    licensing,
    now: () => NOW,
    logger,
    limit: allowance,
    windowMs: 60_000,
    share: 1,
  });
  const scanned = () => licensing.calls.some((c) => c.method === 'licenses.all');
  return { dashboard, infos, scanned };
}

describe('dashboard: the licenses scan estimate', () => {
  it("uses the client's page size: 25 active licenses at 10 a page is 3 requests", async () => {
    const over = dashboardWith(25, 10, 3);
    await over.dashboard.refresh();
    expect(over.scanned()).toBe(false);
    expect(over.infos[0]?.fields).toMatchObject({ pages: 3, allowance: 3 });

    const fits = dashboardWith(25, 100, 3);
    await fits.dashboard.refresh();
    expect(fits.scanned()).toBe(true);
  });

  it('counts the empty page that ends a walk over an exact multiple of the page size', async () => {
    const over = dashboardWith(20, 10, 3);
    await over.dashboard.refresh();
    expect(over.scanned()).toBe(false);
    expect(over.infos[0]?.fields).toMatchObject({ pages: 3 });

    const fits = dashboardWith(19, 10, 3);
    await fits.dashboard.refresh();
    expect(fits.scanned()).toBe(true);
  });
});

describe('dashboard: a big scan', () => {
  it('gives the event loop turns while it picks the licenses ending soon out of 50,000, and finds them all', async () => {
    const licenses = Array.from({ length: 50_000 }, (_, j) =>
      makeLicense({
        id: String(1_000_001 + j),
        end: j % 97 === 0 ? inDays(j % 2 === 0 ? 3 + (j % 7) : -1) : inDays(60),
      }),
    );
    const licensing = createFakeLicensing({
      pools: [makePool({ assignedLicenses: 50_000 })],
      licenses,
      pageSize: 50_000,
    });
    const dashboard = createDashboard({
      licensing,
      now: () => new Date(Date.parse(inDays(0))),
      logger: { debug() {}, info() {}, warn() {}, error() {} },
      limit: 10,
      windowMs: 60_000,
      share: 1,
    });
    const turns = turnCounter();
    let afterRead = 0;
    const all = licensing.licenses.all;
    licensing.licenses.all = async (q, opts) => {
      const read = await all(q, opts);
      afterRead = turns.now();
      return read;
    };
    const result = await dashboard.refresh();
    const done = turns.now();
    turns.stop();
    // Without an audit or a shared store nothing else waits on I/O after the read: the turns are the scan's.
    expect(done - afterRead).toBeGreaterThanOrEqual(10);
    const ending = result.data?.ending ?? [];
    expect(ending).toHaveLength(licenses.filter((_, j) => j % 97 === 0 && j % 2 === 0).length);
    expect(ending.map((l) => l.end)).toEqual([...ending.map((l) => l.end)].sort());
  });
});
