/**
 * Demo data, relative to the injected clock and fully deterministic (no randomness): every screen of
 * the app has something to show. Pools (ids 2001-2007) across four courses:
 *
 * | pool | course                     | transferable | seats | situation                                  |
 * |------|----------------------------|--------------|-------|--------------------------------------------|
 * | 2001 | Mastering DAX              | yes          | 20    | busy; licenses ending in 3 and 6 days       |
 * | 2002 | Mastering DAX              | no           | 10    | one license ran out, still holds its seat   |
 * | 2003 | Optimizing DAX             | yes          | 8     | full (recycle target)                       |
 * | 2004 | Data Modeling for Power BI | yes          | 12    | pool ends in 21 days                        |
 * | 2005 | Power Query Fundamentals   | no           | 6     | addresses outside the allowed domains       |
 * | 2006 | Data Modeling for Power BI | yes          | 10    | ended 35 days ago                           |
 * | 2007 | Power Query Fundamentals   | yes          | 5     | new, nothing assigned                       |
 */
import { dayOffset, endOfDay, startOfDay } from './dates.js';
import type { SandboxData, ScaleSeed } from './types.js';

export type { ScaleSeed };

export const DEMO_ME: SandboxData['me'] = {
  id: '77',
  name: 'Contoso Training',
  email: 'licenses@contoso.com',
  allowedDomainsForTransferableLicenses: ['contoso.com', 'fabrikam.com'],
};

const COURSES = [
  { id: '301', title: 'Mastering DAX' },
  { id: '302', title: 'Optimizing DAX' },
  { id: '303', title: 'Data Modeling for Power BI' },
  { id: '304', title: 'Power Query Fundamentals' },
];

// [id, courseId, transferable, seats, start (days from today), end (days from today)]
const POOLS: [string, string, boolean, number, number, number][] = [
  ['2001', '301', true, 20, -200, 165],
  ['2002', '301', false, 10, -300, 300],
  ['2003', '302', true, 8, -120, 245],
  ['2004', '303', true, 12, -344, 21],
  ['2005', '304', false, 6, -60, 90],
  ['2006', '303', true, 10, -400, -35],
  ['2007', '304', true, 5, -2, 363],
];

const FIRST = ['Alberto', 'Marco', 'Giulia', 'Aisha', 'Kenji', 'Sofia', 'Liam', 'Priya', 'Mateo', 'Ingrid'];
const LAST = ['Rossi', 'Chen', 'Okafor', 'Novak', 'Müller', 'García', 'Tanaka', 'Dubois'];

/** 36 students: 0-29 at contoso.com / fabrikam.com, 30-34 elsewhere (untransferable pool only), 35 tricky. */
function students(): SandboxData['students'] {
  const list: SandboxData['students'] = [];
  for (let i = 0; i < 35; i += 1) {
    const first = FIRST[i % FIRST.length] ?? 'Student';
    const last = LAST[(i * 3) % LAST.length] ?? 'Demo';
    const domain = i < 30 ? (i % 3 === 2 ? 'fabrikam.com' : 'contoso.com') : 'outlook.com';
    const local = `${first}.${last}${i >= FIRST.length ? i : ''}`
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9.]/g, '');
    list.push({ id: String(3001 + i), name: `${first} ${last}`, email: `${local}@${domain}` });
  }
  // Exercises escaping downstream (design.md section 7: a student named <!channel> must ping nobody).
  list.push({ id: '3036', name: '<!channel> & Co', email: 'channel.co@fabrikam.com' });
  return list;
}

type LicenseSpec = [
  pool: string,
  student: number,
  startDay: number,
  /** Days from today; null: the pool end. */
  endDay: number | null,
  state?: 'revoked',
];

// Students 0-35; one active license per student and course at most.
const LICENSES: LicenseSpec[] = [
  // 2001 Mastering DAX, transferable, 20 seats: 13 active (two end within a week), 3 revoked.
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 35].map(
    (s, i): LicenseSpec => ['2001', s, -190 + i * 9, i === 1 ? 3 : i === 4 ? 6 : null],
  ),
  ['2001', 10, -150, 40],
  ['2001', 11, -20, null],
  ['2001', 12, -180, -90, 'revoked'],
  ['2001', 13, -100, -30, 'revoked'],
  ['2001', 14, -60, -5, 'revoked'],
  // 2002 Mastering DAX, untransferable, 10 seats: 6 active + 1 ran out (still holds its seat).
  ...[15, 16, 17, 18, 19, 20].map((s, i): LicenseSpec => ['2002', s, -290 + i * 20, null]),
  ['2002', 21, -280, -10],
  // 2003 Optimizing DAX, transferable, full: 8 active, plus one revoked earlier.
  ...[0, 2, 4, 22, 23, 24, 25, 26].map((s, i): LicenseSpec => ['2003', s, -110 + i * 7, i === 7 ? 5 : null]),
  ['2003', 27, -115, -50, 'revoked'],
  // 2004 Data Modeling, transferable, ends in 21 days: 9 active (one ends in 2 days), 1 revoked.
  ...[1, 3, 5, 7, 9, 11, 27, 28, 29].map((s, i): LicenseSpec => ['2004', s, -330 + i * 30, i === 2 ? 2 : null]),
  ['2004', 13, -300, -100, 'revoked'],
  // 2005 Power Query, untransferable, any domain: 4 active.
  ...[30, 31, 32, 33].map((s, i): LicenseSpec => ['2005', s, -55 + i * 10, null]),
  // 2006 Data Modeling, ended 35 days ago: 6 licenses that ran out with it.
  ...[0, 6, 8, 14, 16, 12].map((s, i): LicenseSpec => ['2006', s, -395 + i * 15, null]),
];

/**
 * Progress 0-100 spread over everyone, with exact 0s and 100s; a 100 has a completion date-time
 * some weeks after the license started (and before today).
 */
function progressOf(student: number, courseId: string, startDay: number, now: Date): SandboxData['progress'][number] {
  const progress = student % 7 === 0 ? 100 : student % 5 === 0 ? 0 : (student * 37 + Number(courseId) * 11) % 100;
  const completedDay = Math.min(startDay + 30 + (student % 20), -1);
  const completed = progress === 100 ? `${dayOffset(now, completedDay)}T16:42:10+00:00` : null;
  return { studentId: String(3001 + student), courseId, progress, completed };
}

export function buildDemoData(now: Date): SandboxData {
  const courseTitle = new Map(COURSES.map((c) => [c.id, c.title]));
  const pools = POOLS.map(([id, courseId, transferable, licenses, from, to]) => ({
    id,
    course: { id: courseId, title: courseTitle.get(courseId) ?? '' },
    start: startOfDay(dayOffset(now, from)),
    end: endOfDay(dayOffset(now, to)),
    transferable,
    licenses,
  }));
  const poolEnd = new Map(pools.map((p) => [p.id, p.end]));
  const poolCourse = new Map(POOLS.map(([id, courseId]) => [id, courseId]));
  const progress = new Map<string, SandboxData['progress'][number]>();
  const licenses = LICENSES.map(([poolId, student, startDay, endDay, state], i) => {
    const courseId = poolCourse.get(poolId) ?? '';
    progress.set(`${student}/${courseId}`, progressOf(student, courseId, startDay, now));
    return {
      id: String(4001 + i),
      poolId,
      studentId: String(3001 + student),
      // Assigned at varied times of day, so sorting by start is meaningful.
      start: startOfDay(dayOffset(now, startDay)).replace('00:00:00', `${String(8 + (i % 10)).padStart(2, '0')}:15:00`),
      end: endDay === null ? (poolEnd.get(poolId) ?? '') : endOfDay(dayOffset(now, endDay)),
      active: state !== 'revoked',
    };
  });
  return {
    me: { ...DEMO_ME, allowedDomainsForTransferableLicenses: [...DEMO_ME.allowedDomainsForTransferableLicenses] },
    courses: COURSES.map((c) => ({ ...c })),
    pools,
    students: students(),
    licenses,
    progress: [...progress.values()],
  };
}

/** 'empty': nothing but `me`. */
export function buildEmptyData(): SandboxData {
  return {
    me: { ...DEMO_ME, allowedDomainsForTransferableLicenses: [...DEMO_ME.allowedDomainsForTransferableLicenses] },
    courses: [],
    pools: [],
    students: [],
    licenses: [],
    progress: [],
  };
}

/**
 * Generated data for big accounts (benchmarks, load checks): `pools` pools over
 * max(50, heavy) courses, `licenses` licenses spread evenly over the pools, two per ordinary
 * student in two neighbouring pools (so two different courses), and one heavy student. Deterministic
 * (no randomness) and linear in its size: 50,000 licenses take well under a second. Every 20th
 * license is revoked, every 97th ends within a week, every 10th pool is full, and every 25th pool ends within 60 days.
 */
export function buildScaleData(now: Date, seed: ScaleSeed): SandboxData {
  const poolCount = Math.max(1, Math.floor(seed.pools));
  const heavy = Math.max(0, Math.min(Math.floor(seed.heavyStudentLicenses ?? 0), poolCount, seed.licenses));
  const courseCount = Math.min(poolCount, Math.max(50, heavy));
  const courses = Array.from({ length: courseCount }, (_, c) => ({
    id: String(10_001 + c),
    title: `${COURSES[c % COURSES.length]?.title ?? 'Course'} ${Math.floor(c / COURSES.length) + 1}`,
  }));
  const ordinary = Math.max(0, Math.floor(seed.licenses) - heavy);
  const day = (offset: number) => dayOffset(now, offset);
  const spec = Array.from({ length: poolCount }, (_, i) => ({
    startDay: -400 + (i % 200),
    endDay: i % 25 === 0 ? 5 + (i % 55) : 120 + (i % 300),
    held: 0,
    /** Held by licenses not revoked: the seats a transferable pool has in use. */
    inUse: 0,
  }));
  const poolOf = (j: number) => (Math.floor(j / 2) + (j % 2)) % poolCount;
  const revoked = (j: number) => j % 20 === 19;
  const count = (poolIndex: number, j: number) => {
    const p = spec[poolIndex];
    if (!p) return;
    p.held += 1;
    if (!revoked(j)) p.inUse += 1;
  };
  for (let j = 0; j < ordinary; j += 1) count(poolOf(j), j);
  for (let i = 0; i < heavy; i += 1) count(i, ordinary + i);
  const pools = spec.map((p, i) => ({
    id: String(100_001 + i),
    course: courses[i % courseCount] ?? { id: '10001', title: 'Course' },
    start: startOfDay(day(p.startDay)),
    end: endOfDay(day(p.endDay)),
    transferable: i % 4 !== 3,
    licenses: (i % 4 !== 3 ? p.inUse : p.held) + (i % 10 === 0 ? 0 : 5 + (i % 7)),
  }));
  const students: SandboxData['students'] = [];
  const licenses: SandboxData['licenses'] = [];
  const progress: SandboxData['progress'] = [];
  const addLicense = (j: number, poolIndex: number, studentId: string, studentNo: number) => {
    const pool = pools[poolIndex];
    const p = spec[poolIndex];
    if (!pool || !p) return;
    const startDay = Math.min(p.startDay + (j % 300), -1);
    const hour = String(8 + (j % 10)).padStart(2, '0');
    licenses.push({
      id: String(1_000_001 + j),
      poolId: pool.id,
      studentId,
      start: startOfDay(day(startDay)).replace('00:00:00', `${hour}:${String(j % 60).padStart(2, '0')}:00`),
      end: j % 97 === 0 ? endOfDay(day(1 + (j % 6))) : pool.end,
      active: !revoked(j),
    });
    const pct = (studentNo * 37 + j) % 101;
    progress.push({
      studentId,
      courseId: pool.course.id,
      progress: pct,
      completed: pct === 100 ? `${day(Math.min(startDay + 30, -1))}T16:42:10+00:00` : null,
    });
  };
  for (let j = 0; j < ordinary; j += 1) {
    const s = Math.floor(j / 2);
    if (j % 2 === 0) {
      const first = FIRST[s % FIRST.length] ?? 'Student';
      const last = LAST[Math.floor(s / FIRST.length) % LAST.length] ?? 'Demo';
      students.push({ id: String(2_000_001 + s), name: `${first} ${last} ${s}`, email: `student${s}@contoso.com` });
    }
    addLicense(j, poolOf(j), String(2_000_001 + s), s);
  }
  if (heavy > 0) {
    const heavyId = '1999999';
    students.push({ id: heavyId, name: 'Hana Heavy', email: 'heavy@contoso.com' });
    for (let i = 0; i < heavy; i += 1) addLicense(ordinary + i, i, heavyId, 0);
  }
  return {
    me: { ...DEMO_ME, allowedDomainsForTransferableLicenses: [...DEMO_ME.allowedDomainsForTransferableLicenses] },
    courses,
    pools,
    students,
    licenses,
    progress,
  };
}
