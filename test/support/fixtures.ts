import type { Course, License, Me, Pool, Student, StudentCourse } from '../../src/kernel/domain/types.js';
import type { LicenseProgress } from '../../src/progress/index.js';

export const NOW = new Date('2026-03-01T12:00:00Z');
const DAY = 86_400_000;
export const inDays = (days: number): string =>
  new Date(NOW.getTime() + days * DAY).toISOString().replace('Z', '+00:00');

export function makePool(over: Partial<Pool> = {}): Pool {
  return {
    id: '101',
    course: { id: 'c1', title: 'Power BI Fundamentals' },
    start: inDays(-100),
    end: inDays(200),
    transferable: true,
    licenses: 50,
    assignedLicenses: 38,
    availableLicenses: 12,
    ...over,
  };
}

export function makeLicense(over: Partial<License> = {}): License {
  return {
    id: '5001',
    poolId: '101',
    courseId: 'c1',
    start: inDays(-30),
    end: inDays(60),
    active: true,
    revokable: true,
    editable: true,
    student: { id: '3001', name: 'Ada Lovelace', email: 'ada@example.com' },
    ...over,
  };
}

/** A license as the progress records hold it: Ada at 40 %, not completed, unchanged for 60 days. */
export function makeLicenseProgress(over: Partial<LicenseProgress> = {}): LicenseProgress {
  return {
    licenseId: 'L1',
    poolId: 'p1',
    courseId: 'c1',
    studentId: 's1',
    studentEmail: 'ada@example.com',
    studentName: 'Ada',
    progress: 40,
    completed: null,
    start: inDays(-90),
    end: inDays(90),
    active: true,
    firstSeenAt: inDays(-60),
    changedAt: inDays(-60),
    seenAt: inDays(0),
    ...over,
  };
}

export function makeStudentCourse(over: Partial<StudentCourse> = {}): StudentCourse {
  return {
    id: 'c1',
    title: 'Power BI Fundamentals',
    poolId: '101',
    licenseId: '5001',
    licenseActive: true,
    licenseRevokable: true,
    licenseEditable: true,
    start: inDays(-30),
    end: inDays(60),
    progress: 42,
    completed: null,
    ...over,
  };
}

export function makeStudent(over: Partial<Student> = {}): Student {
  return { id: '3001', name: 'Ada Lovelace', email: 'ada@example.com', courses: [makeStudentCourse()], ...over };
}

export function makeCourse(over: Partial<Course> = {}): Course {
  return {
    id: 'c1',
    title: 'Power BI Fundamentals',
    licenses: 50,
    assignedLicenses: 38,
    availableLicenses: 12,
    pools: [
      {
        id: '101',
        start: inDays(-100),
        end: inDays(200),
        transferable: true,
        licenses: 50,
        assignedLicenses: 38,
        availableLicenses: 12,
      },
    ],
    ...over,
  };
}

export const ME: Me = {
  id: '1',
  name: 'Contoso Training',
  email: 'licenses@contoso.com',
  pools: 3,
  licenses: 120,
  untransferableLicenses: 20,
  transferableLicenses: 100,
  allowedDomainsForTransferableLicenses: ['contoso.com', 'fabrikam.com'],
};

/** The texts Slack parses as mrkdwn (the fallback and mrkdwn objects): where a mention would ping. */
export function mrkdwnText(message: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) {
      if ('type' in v && v.type === 'mrkdwn' && 'text' in v && typeof v.text === 'string') out.push(v.text);
      else for (const x of Object.values(v)) walk(x);
    }
  };
  if (typeof message === 'object' && message !== null && 'text' in message && typeof message.text === 'string') {
    out.push(message.text);
  }
  walk(message);
  return out.join('\n');
}

/** Every piece of text in a message, for "what the user reads" assertions. */
/** What a Slack call says: its text and every text of its blocks. */
export function callText(call: { args: Record<string, unknown> }): string {
  return `${String(call.args.text)} ${allText(call.args.blocks)}`;
}

export function allText(message: unknown): string {
  const out: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === 'text' && typeof x === 'string') out.push(x);
        else walk(x);
      }
    }
  };
  walk(message);
  return out.join('\n');
}

export interface FoundButton {
  action_id: string;
  text: string;
  value: string | undefined;
}

export function buttons(message: unknown): FoundButton[] {
  const out: FoundButton[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) for (const x of v) walk(x);
    else if (typeof v === 'object' && v !== null) {
      const o = v as Record<string, unknown>;
      if (o.type === 'button' && typeof o.action_id === 'string') {
        const t = o.text as { text?: string } | undefined;
        out.push({
          action_id: o.action_id,
          text: t?.text ?? '',
          value: typeof o.value === 'string' ? o.value : undefined,
        });
      }
      for (const x of Object.values(o)) walk(x);
    }
  };
  walk(message);
  return out;
}
