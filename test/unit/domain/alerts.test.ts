import { describe, expect, it } from 'vitest';
import {
  alertKeys,
  alertsFromScan,
  findAlerts,
  newLicenseScan,
  scanLicenses,
} from '../../../src/alerts/domain/alerts.js';
import { inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

const none = () => false;

describe('findAlerts', () => {
  it('full and nearly full pools, once each; full covers nearly full', () => {
    const full = makePool({ id: 'f', licenses: 10, assignedLicenses: 10, availableLicenses: 0 });
    const nearly = makePool({ id: 'n', licenses: 10, assignedLicenses: 9, availableLicenses: 1 });
    const roomy = makePool({ id: 'r', licenses: 10, assignedLicenses: 8, availableLicenses: 2 });
    const alerts = findAlerts({ pools: [full, nearly, roomy], licenses: [], now: NOW, sent: none });
    expect(alerts.map((a) => a.key)).toEqual(['pool-full:f', 'pool-nearly-full:n']);
    expect(alerts[0]?.covers).toEqual(['pool-nearly-full:f']);
    const again = findAlerts({ pools: [full, nearly], licenses: [], now: NOW, sent: (k) => k === 'pool-full:f' });
    expect(again.map((a) => a.key)).toEqual(['pool-nearly-full:n']);
  });

  it('a pool ending: only the tightest threshold, the wider ones covered, with the students who lose access', () => {
    const pool = makePool({ id: 'p', end: inDays(5), availableLicenses: 5 });
    const holder = makeLicense({ poolId: 'p', end: inDays(5), student: { id: '1', name: 'Ada', email: 'a@x.com' } });
    const [alert] = findAlerts({ pools: [pool], licenses: [holder], now: NOW, sent: none });
    expect(alert?.kind).toBe('pool-ending');
    expect(alert?.key).toBe(alertKeys.poolEnding(pool, 7));
    expect(alert?.covers).toEqual([alertKeys.poolEnding(pool, 60), alertKeys.poolEnding(pool, 30)]);
    expect(alert?.kind === 'pool-ending' && alert.students.map((s) => s.name)).toEqual(['Ada']);
    // The license ends with its pool: told by the pool's alert, not twice.
    expect(findAlerts({ pools: [pool], licenses: [holder], now: NOW, sent: none })).toHaveLength(1);
  });

  it('thresholds 60, 30, 7 as days pass; nothing beyond 60 days, nothing for ended pools', () => {
    const at = (days: number) =>
      findAlerts({ pools: [makePool({ end: inDays(days) })], licenses: [], now: NOW, sent: none });
    expect(at(61)).toEqual([]);
    expect(at(45)[0]?.key).toMatch(/:60$/);
    expect(at(21)[0]?.key).toMatch(/:30$/);
    expect(at(7)[0]?.key).toMatch(/:7$/);
    expect(at(-1)).toEqual([]);
  });

  it('licenses ending within 7 days, soonest first; an end that moves is a new condition', () => {
    const pool = makePool({ end: inDays(200) });
    const soon = makeLicense({ id: 'a', end: inDays(3) });
    const later = makeLicense({ id: 'b', end: inDays(6) });
    const far = makeLicense({ id: 'c', end: inDays(9) });
    const keys = findAlerts({ pools: [pool], licenses: [later, far, soon], now: NOW, sent: none }).map((a) => a.key);
    expect(keys).toEqual([alertKeys.licenseEnding(soon), alertKeys.licenseEnding(later)]);
    const moved = { ...soon, end: inDays(5) };
    expect(alertKeys.licenseEnding(moved)).not.toBe(alertKeys.licenseEnding(soon));
  });

  it('a pool ending with 40,000 active licenses: every holder listed once, in order, with the ending ones of other pools', () => {
    const pool = makePool({
      id: 'big',
      end: inDays(5),
      licenses: 50_000,
      assignedLicenses: 40_000,
      availableLicenses: 10_000,
    });
    const other = makePool({ id: 'other', end: inDays(200) });
    const holders = Array.from({ length: 40_000 }, (_, i) =>
      makeLicense({
        id: `h${i}`,
        poolId: 'big',
        end: inDays(5),
        student: { id: `s${i}`, name: `S${i}`, email: `s${i}@x.com` },
      }),
    );
    const revoked = makeLicense({ id: 'r', poolId: 'big', end: inDays(5), active: false });
    const ending = makeLicense({ id: 'e', poolId: 'other', end: inDays(2) });
    const alerts = findAlerts({ pools: [pool, other], licenses: [...holders, revoked, ending], now: NOW, sent: none });
    expect(alerts.map((a) => a.kind)).toEqual(['pool-ending', 'license-ending']);
    const students = alerts[0]?.kind === 'pool-ending' ? alerts[0].students : [];
    expect(students).toHaveLength(40_000);
    expect(students[0]?.id).toBe('s0');
    expect(students[39_999]?.id).toBe('s39999');
    expect(new Set(students.map((s) => s.id)).size).toBe(40_000);
  });
});

describe('alertKeys', () => {
  it('a date that cannot be read gives a key, not a RangeError', () => {
    expect(() => alertKeys.licenseEnding(makeLicense({ id: '7', end: 'not a date' }))).not.toThrow();
    expect(alertKeys.poolEnding(makePool({ id: '3', end: '2026-04-30T23:59:59+02:00' }), 7)).toBe(
      'pool-ending:3:2026-04-30:7',
    );
  });

  it('scanned a slice at a time, the licenses give the same alerts as in one pass, whatever the slice', () => {
    const pools = [
      makePool({ id: 'p1', end: inDays(5) }),
      makePool({ id: 'p2', end: inDays(200), assignedLicenses: 50, availableLicenses: 0 }),
      makePool({ id: 'p3', end: inDays(40) }),
    ];
    const licenses = Array.from({ length: 37 }, (_, i) =>
      makeLicense({
        id: `l${i}`,
        poolId: `p${1 + (i % 3)}`,
        end: i % 4 === 0 ? inDays(1 + (i % 6)) : (pools[i % 3]?.end ?? inDays(1)),
        active: i % 5 !== 4,
        student: { id: `s${i}`, name: `S${i}`, email: `s${i}@x.com` },
      }),
    );
    const whole = findAlerts({ pools, licenses, now: NOW, sent: none });
    expect(whole.map((a) => a.kind)).toEqual(
      expect.arrayContaining(['pool-ending', 'license-ending', 'pool-capacity']),
    );
    for (const size of [1, 2, 5, 36, 37, 100]) {
      const scan = newLicenseScan();
      for (let from = 0; from < licenses.length; from += size) scanLicenses(scan, licenses, from, from + size, NOW);
      expect(alertsFromScan(scan, { pools, now: NOW, sent: none })).toEqual(whole);
    }
  });
});
