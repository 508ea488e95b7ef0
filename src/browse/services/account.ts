/** The manager's account, courses and students: thin reads, kept here so handlers stay Slack-only. */
import type { Course, Me, Student } from '../../kernel/domain/types.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import { LIST_PAGE_SIZE } from './pools.js';

export function getMe(licensing: LicensingClient): Promise<Me> {
  return licensing.me(INTERACTIVE);
}

export async function listCourses(licensing: LicensingClient): Promise<Course[]> {
  const courses = await licensing.courses.list(INTERACTIVE);
  return [...courses].sort((a, b) => a.title.localeCompare(b.title) || a.id.localeCompare(b.id));
}

export interface StudentsPage {
  students: Student[];
  page: number;
  hasNext: boolean;
}

export async function getStudentsPage(licensing: LicensingClient, page: number): Promise<StudentsPage> {
  const students = await licensing.students.list({ page, pageSize: LIST_PAGE_SIZE }, INTERACTIVE);
  return { students, page, hasNext: students.length >= LIST_PAGE_SIZE };
}
