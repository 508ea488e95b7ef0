import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { findAlerts } from '../../../src/alerts/domain/alerts.js';
import { type AlertGroup, alertMemory, createAlertService, groupAlerts } from '../../../src/alerts/services/alerts.js';
import { openRecords } from '../../../src/kernel/db/open.js';
import type { License, Pool } from '../../../src/kernel/domain/types.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { turnCounter } from '../../support/event-loop.js';
import { createFakeLicensing } from '../../support/fake-licensing.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

const logger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/** 1,000 pools (every 10th full, every 25th ending within 60 days) and 50,000 licenses, some ending soon. */
function bigAccount(): { pools: Pool[]; licenses: License[] } {
  const pools = Array.from({ length: 1_000 }, (_, i) =>
    makePool({
      id: String(100_001 + i),
      end: inDays(i % 25 === 0 ? 5 + (i % 55) : 120 + (i % 300)),
      licenses: 60,
      assignedLicenses: i % 10 === 0 ? 60 : 50,
      availableLicenses: i % 10 === 0 ? 0 : 10,
    }),
  );
  const licenses = Array.from({ length: 50_000 }, (_, j) => {
    const pool = pools[j % pools.length] as Pool;
    return makeLicense({
      id: String(1_000_001 + j),
      poolId: pool.id,
      end: j % 97 === 0 ? inDays(1 + (j % 6)) : pool.end,
      active: j % 20 !== 19,
      student: { id: String(j), name: `Student ${j}`, email: `s${j}@example.com` },
    });
  });
  return { pools, licenses };
}

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('the daily alert check on a big account', () => {
  it('lets the event loop turn while it goes through 50,000 licenses, and posts what one pass finds', async () => {
    const { pools, licenses } = bigAccount();
    const licensing = createFakeLicensing({ pools, licenses, pageSize: 1_000 });
    dir = await mkdtemp(join(tmpdir(), 'alert-check-'));
    const records = await openRecords({ dataDir: dir, heartbeatMs: 0 });
    onTestFinished(() => records.close());
    const file = alertMemory(records);
    const service = createAlertService({ licensing, file, now: () => NOW, logger });
    const turns = turnCounter();
    let afterRead: number | undefined;
    let atFirstPost: number | undefined;
    const all = licensing.licenses.all;
    licensing.licenses.all = async (q, opts) => {
      const read = await all(q, opts);
      afterRead = turns.now();
      return read;
    };
    const groups: AlertGroup[] = [];
    try {
      await service.check(async (group) => {
        atFirstPost ??= turns.now();
        groups.push(group);
        return undefined;
      });
    } finally {
      turns.stop();
    }
    // One pass in a single turn left no turn between the two (0); a slice per turn leaves one per slice.
    expect((atFirstPost ?? 0) - (afterRead ?? 0)).toBeGreaterThanOrEqual(10);
    const expected = findAlerts({ pools, licenses: licenses.filter((l) => l.active), now: NOW, sent: () => false });
    expect(expected.length).toBeGreaterThan(100);
    expect(groups).toEqual(groupAlerts(expected));
  });
});
