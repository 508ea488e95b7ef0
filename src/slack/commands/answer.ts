/**
 * What each read shows: one service call (cached where the client caches), one pure builder. Shared by
 * the slash command and the navigation buttons. Errors become one sentence (present.ts), never a throw.
 */
import type { webApi } from '@slack/bolt';
import { buildErrorMessage, buildNoticeMessage } from '../../blocks/common.js';
import { buildCoursesView } from '../../blocks/courses.js';
import type { SlackMessage } from '../../blocks/kit.js';
import { buildLicenseView } from '../../blocks/license.js';
import { buildLicenseListView } from '../../blocks/license-list.js';
import { buildMeView } from '../../blocks/me.js';
import type { NavTarget } from '../../blocks/nav.js';
import { buildPoolLicensesView } from '../../blocks/pool-licenses.js';
import { buildPoolsView } from '../../blocks/pools.js';
import { buildStudentNotFoundView, buildStudentView } from '../../blocks/student.js';
import { buildStudentsView } from '../../blocks/students.js';
import { getMe, getStudentsPage, listCourses } from '../../services/account.js';
import { findStudent } from '../../services/find-student.js';
import { getLicenseDetails } from '../../services/licenses.js';
import { getLicensesPage, getPoolLicensesPage, listPools } from '../../services/pools.js';
import type { AppDeps, Role } from '../deps.js';
import type { FindTarget } from '../parse.js';
import type { Subject } from '../present.js';
import { presentErrorTo } from '../token-alarm.js';
import { resolveUserEmail } from './resolve-user.js';

export interface AnswerContext {
  deps: AppDeps;
  role: Exclude<Role, 'none'>;
  client: webApi.WebClient;
}

export type Question = { kind: 'view'; target: NavTarget } | { kind: 'me' } | { kind: 'find'; target: FindTarget };

export function workingText(q: Question): string {
  if (q.kind === 'me') return 'reading your licensing account';
  if (q.kind === 'find') return 'looking for the student';
  const what = { pools: 'pools', pool: 'the pool', list: 'licenses', students: 'students', courses: 'courses' };
  return q.target.v === 'show' ? 'reading the license' : `reading ${what[q.target.v]}`;
}

function subjectOf(q: Question): Subject {
  if (q.kind !== 'view') return q.kind === 'find' ? 'student' : 'other';
  return q.target.v === 'pool' ? 'pool' : q.target.v === 'show' ? 'license' : 'other';
}

async function view(target: NavTarget, { deps, role }: AnswerContext): Promise<SlackMessage> {
  const { licensing } = deps;
  const canChange = role === 'admin';
  const now = deps.now();
  switch (target.v) {
    case 'pools':
      return buildPoolsView({ pools: await listPools(licensing), page: target.n, canChange, now });
    case 'pool': {
      const page = await getPoolLicensesPage(licensing, target.p, target.n, target.i === 1);
      return buildPoolLicensesView({ ...page, includeInactive: target.i === 1, now });
    }
    case 'list': {
      const page = await getLicensesPage(licensing, target.n, target.i === 1);
      return buildLicenseListView({ ...page, includeInactive: target.i === 1, now });
    }
    case 'show':
      return buildLicenseView({ ...(await getLicenseDetails(licensing, target.l)), canChange, now });
    case 'students':
      return buildStudentsView(await getStudentsPage(licensing, target.n));
    case 'courses':
      return buildCoursesView(await listCourses(licensing), target.n, now);
  }
}

async function find(target: FindTarget, ctx: AnswerContext): Promise<SlackMessage> {
  let email: string;
  if ('userId' in target) {
    const resolved = await resolveUserEmail(ctx.client, target.userId);
    if ('problem' in resolved) return buildNoticeMessage(resolved.problem);
    email = resolved.email;
  } else {
    email = target.email;
  }
  const result = await findStudent(ctx.deps.licensing, email);
  return result.found ? buildStudentView(result.report, ctx.deps.now()) : buildStudentNotFoundView(result.email);
}

export async function answer(q: Question, ctx: AnswerContext): Promise<SlackMessage> {
  try {
    if (q.kind === 'me') return buildMeView(await getMe(ctx.deps.licensing));
    if (q.kind === 'find') return await find(q.target, ctx);
    return await view(q.target, ctx);
  } catch (error) {
    ctx.deps.logger.warn('read failed', { question: q.kind, error: String(error) });
    return buildErrorMessage(await presentErrorTo(ctx.deps, ctx.client, ctx.role, error, subjectOf(q)));
  }
}
