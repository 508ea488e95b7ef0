import { describe, expect, it } from 'vitest';
import { buildDemoData, buildScaleData } from '../../../local/sandbox/seed.js';
import { createStore, isActive } from '../../../local/sandbox/store.js';
import { licenseView, poolView } from '../../../local/sandbox/views.js';

const NOW = new Date('2025-03-10T12:00:00Z');
const DAY = 86_400_000;

describe('demo data', () => {
  const data = buildDemoData(NOW);
  const store = createStore(data, () => NOW);
  const pools = [...store.pools.values()].map((p) => poolView(store, p));
  const licenses = [...store.licenses.values()];

  it('is deterministic for a given clock', () => {
    expect(buildDemoData(new Date(NOW))).toEqual(data);
  });

  it('has at least 6 pools over 4 courses: transferable and not, one full, one ending soon, one ended', () => {
    expect(pools.length).toBeGreaterThanOrEqual(6);
    expect(new Set(pools.map((p) => p.course.id)).size).toBeGreaterThanOrEqual(4);
    expect(pools.some((p) => p.transferable)).toBe(true);
    expect(pools.some((p) => !p.transferable)).toBe(true);
    expect(pools.some((p) => p.availableLicenses === 0 && Date.parse(p.end) > NOW.getTime())).toBe(true);
    const endsIn = (p: { end: string }) => Date.parse(p.end) - NOW.getTime();
    expect(pools.some((p) => endsIn(p) > 0 && endsIn(p) <= 30 * DAY)).toBe(true);
    expect(pools.some((p) => endsIn(p) < 0)).toBe(true);
    for (const p of pools) expect(p.assignedLicenses + p.availableLicenses).toBe(p.licenses);
    for (const p of pools) expect(p.availableLicenses).toBeGreaterThanOrEqual(0);
  });

  it('has at least 40 licenses, inactive ones and active ones ending within 7 days', () => {
    expect(licenses.length).toBeGreaterThanOrEqual(40);
    expect(licenses.filter((l) => !isActive(store, l)).length).toBeGreaterThanOrEqual(5);
    const soon = licenses.filter((l) => isActive(store, l) && Date.parse(l.end) - NOW.getTime() <= 7 * DAY);
    expect(soon.length).toBeGreaterThanOrEqual(2);
  });

  it('keeps every license inside its pool and every student to one active license per course', () => {
    const seen = new Set<string>();
    for (const l of licenses) {
      const pool = store.pools.get(l.poolId);
      expect(pool).toBeDefined();
      expect(Date.parse(l.end)).toBeLessThanOrEqual(Date.parse(pool?.end ?? ''));
      expect(Date.parse(l.start)).toBeGreaterThanOrEqual(Date.parse(pool?.start ?? ''));
      expect(store.students.has(l.studentId)).toBe(true);
      if (!isActive(store, l)) continue;
      const key = `${l.studentId}/${pool?.courseId}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
    }
  });

  it('gives transferable licenses only to the allowed domains', () => {
    const allowed = data.me.allowedDomainsForTransferableLicenses;
    expect(allowed).toEqual(['contoso.com', 'fabrikam.com']);
    for (const l of licenses.filter((x) => store.pools.get(x.poolId)?.transferable)) {
      expect(allowed).toContain(licenseView(store, l).student.email.split('@')[1]);
    }
  });

  it('has progress from 0 to 100 with completion dates, and a student with a tricky name', () => {
    const values = data.progress.map((p) => p.progress);
    expect(values).toContain(0);
    expect(values).toContain(100);
    expect(values.some((v) => v > 0 && v < 100)).toBe(true);
    for (const p of data.progress) expect(p.completed === null).toBe(p.progress !== 100);
    for (const p of data.progress) if (p.completed) expect(Date.parse(p.completed)).toBeLessThan(NOW.getTime());
    expect(data.students.map((s) => s.name)).toContain('<!channel> & Co');
    expect(new Set(data.students.map((s) => s.email.toLowerCase())).size).toBe(data.students.length);
  });
});

describe('scale data', () => {
  const seed = { pools: 50, licenses: 2_000, heavyStudentLicenses: 30 };
  const data = buildScaleData(NOW, seed);
  const store = createStore(data, () => NOW);

  it('has the pools and licenses asked for, the same for the same clock', () => {
    expect(data.pools).toHaveLength(50);
    expect(data.licenses).toHaveLength(2_000);
    expect(new Set(data.licenses.map((l) => l.id)).size).toBe(2_000);
    expect(buildScaleData(new Date(NOW), seed)).toEqual(data);
  });

  it('one student holds the heavy share, each license in another course; nobody else holds a course twice', () => {
    const heavy = data.students.find((s) => s.email === 'heavy@contoso.com');
    expect(data.licenses.filter((l) => l.studentId === heavy?.id)).toHaveLength(30);
    const courseOf = new Map(data.pools.map((p) => [p.id, p.course.id]));
    const pairs = data.licenses.map((l) => `${l.studentId}/${courseOf.get(l.poolId)}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('pools the app can read: counters add up, some full, some ending, some licenses revoked or ending soon', () => {
    const pools = [...store.pools.values()].map((p) => poolView(store, p));
    for (const p of pools) expect(p.assignedLicenses + p.availableLicenses).toBe(p.licenses);
    expect(pools.some((p) => p.availableLicenses === 0)).toBe(true);
    expect(pools.some((p) => Date.parse(p.end) - NOW.getTime() < 60 * DAY)).toBe(true);
    const licenses = [...store.licenses.values()];
    expect(licenses.some((l) => !l.active)).toBe(true);
    expect(licenses.some((l) => isActive(store, l) && Date.parse(l.end) - NOW.getTime() < 7 * DAY)).toBe(true);
  });
});
