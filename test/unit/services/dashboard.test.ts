import { describe, expect, it } from 'vitest';
import type { Logger } from '../../../src/licensing/types.js';
import { createDashboard } from '../../../src/services/dashboard.js';
import { makePool } from '../blocks/fixtures.js';
import { createFakeLicensing } from './fake-licensing.js';

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
