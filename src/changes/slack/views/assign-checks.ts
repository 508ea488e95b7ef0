/**
 * The assign form's checks before any write, as inline errors keyed by input
 * block_id. Syntax and the pool, domain and date rules cost nothing (the form's snapshot); whether
 * the student already holds the course costs one GET /v1/student, raced against the ack budget.
 */
import type { webApi } from '@slack/bolt';
import { InputId } from '../../../kernel/blocks/ids.js';
import { parseEmail } from '../../../kernel/domain/email.js';
import { dayText, today } from '../../../kernel/domain/end-date.js';
import type { Pool } from '../../../kernel/domain/types.js';
import type { AppDeps } from '../../../kernel/slack/deps.js';
import { memberByEmail, resolveUserEmail } from '../../../kernel/slack/resolve-user.js';
import type { Snapshot } from '../../../kernel/slack/state.js';
import { type AssignmentProblem, validateAssignment } from '../../domain/assignment.js';
import { studentAndEnrollment } from '../../services/assign.js';
import { withinBudget } from './budget.js';
import type { AssignForm } from './form.js';

/** Leaves room in Slack's 3 s for the role check, users.info and the answer itself. */
export const ENROLLMENT_BUDGET_MS = 1200;

export interface CheckedAssign {
  errors: Record<string, string>;
  email: string | undefined;
  pool: Pool | undefined;
  /**
   * The Slack name (real, else display name) of the member picked, or of the member whose e-mail was
   * typed: sent as the student's name unless one was typed.
   */
  slackName?: string;
}

/**
 * Why the form needs a name typed, if it does: no name was typed and Slack gives none for the student
 * (the e-mail is no member's, or their profile has no name, or Slack could not say now). The
 * licensing service would otherwise create a new student as "Student".
 */
function nameProblem(found: 'not-member' | 'no-name' | 'unknown'): string {
  switch (found) {
    case 'not-member':
      return 'No Slack member has this e-mail, so I have no name for the student: type their name (the licensing service would otherwise call them “Student”).';
    case 'no-name':
      return 'That member’s Slack profile has no name: type the student’s name (the licensing service would otherwise call them “Student”).';
    case 'unknown':
      return 'Slack could not tell me right now whose e-mail this is: type the student’s name, or submit again in a moment.';
  }
}

function problemText(p: AssignmentProblem, now: Date): string {
  switch (p.kind) {
    case 'ended':
      return 'This pool has ended; pick another one.';
    case 'full-untransferable':
      return 'This pool is full and not transferable, so no seat can be freed; pick another pool.';
    case 'full-needs-recycle':
      return 'This pool is full. Tick “Free a seat” below to end another license and reuse its seat, or pick another pool.';
    case 'domain':
      return `This pool is transferable: its licenses can only go to addresses at ${p.allowed.join(', ')}.`;
    case 'past':
      return `The end date can't be in the past (today is ${dayText(today(now))}).`;
    case 'after-pool-end':
      return `The end date can't be after the pool ends (${dayText(p.poolEnd)}).`;
    case 'before-pool-start':
      return 'The end date is before the pool starts.';
  }
}

const BLOCK: Record<AssignmentProblem['field'], string> = {
  pool: InputId.assignPool.block,
  email: InputId.assignEmail.block,
  endDate: InputId.assignEndDate.block,
};

export async function checkAssignForm(
  deps: AppDeps,
  client: webApi.WebClient,
  form: AssignForm,
  snapshot: Snapshot | undefined,
): Promise<CheckedAssign> {
  const errors: Record<string, string> = {};
  const now = deps.now();
  let email: string | undefined;
  let slackName: string | undefined;
  /** Why a name must be typed, unless the licensing service knows the student already. */
  let needName: string | undefined;
  const emailBlock = form.userId && !form.emailText ? InputId.assignUser.block : InputId.assignEmail.block;
  if (form.emailText && form.userId) {
    errors[InputId.assignUser.block] = 'Type an e-mail or pick a member, not both.';
  } else if (form.emailText) {
    email = parseEmail(form.emailText);
    if (!email) errors[InputId.assignEmail.block] = 'That is not an e-mail address, e.g. ada@example.com.';
    else if (!form.name) {
      // No name typed: the Slack name of the member with this e-mail, else the form asks for one
      // (below: unless the licensing service knows the student already, with their name).
      const member = await memberByEmail(client, email);
      if (member.kind === 'member' && member.name) slackName = member.name;
      else needName = nameProblem(member.kind === 'member' ? 'no-name' : member.kind);
    }
  } else if (form.userId) {
    const resolved = await resolveUserEmail(client, form.userId);
    if ('problem' in resolved) errors[InputId.assignUser.block] = resolved.problem.replace(/`/g, '');
    else {
      email = resolved.email;
      slackName = resolved.name;
      if (!slackName && !form.name) needName = nameProblem('no-name');
    }
  } else {
    errors[InputId.assignEmail.block] = 'Type the student’s e-mail, or pick a Slack member below.';
  }
  if (!form.poolId) errors[InputId.assignPool.block] = 'Pick a pool.';
  if (form.endDate === 'invalid') errors[InputId.assignEndDate.block] = 'That is not a date.';
  const endDate = form.endDate === 'invalid' ? undefined : form.endDate;
  const pool = snapshot?.kind === 'assign' ? snapshot.pools.find((p) => p.id === form.poolId) : undefined;
  if (pool && snapshot?.kind === 'assign') {
    const input = { pool, email: email ?? '', endDate, allowedDomains: snapshot.allowedDomains, recycle: form.recycle };
    for (const p of validateAssignment(input, now)) {
      if (p.field === 'email' && !email) continue;
      const block = p.field === 'email' ? emailBlock : BLOCK[p.field];
      errors[block] ??= problemText(p, now);
    }
  } else if (endDate !== undefined && endDate < today(now)) {
    errors[InputId.assignEndDate.block] = `The end date can't be in the past (today is ${dayText(today(now))}).`;
  }
  // The one licensing read before an ack in the app: inline errors exist only in the ack, and
  // "already enrolled" is worth showing there, where the API lets us see it cheaply. Only when the
  // limiter can send it at once: a lookup that would wait would lose the race and still spend a
  // request later.
  const canAskNow = deps.licensing.limiter.estimateWaitMs('interactive') < ENROLLMENT_BUDGET_MS / 4;
  let known = false;
  if (Object.keys(errors).length === 0 && pool && email && canAskNow) {
    const enrolled = await withinBudget(
      studentAndEnrollment(deps.licensing, email, pool.course.id, now),
      ENROLLMENT_BUDGET_MS,
    );
    known = enrolled?.value?.known === true;
    const license = enrolled?.value?.license;
    if (license) {
      errors[emailBlock] =
        `${license.student.name || email} already holds an active license for this course (license ${license.id}, pool ${license.poolId}, ends ${dayText(license.end)}).`;
    }
  }
  // A new student (or one the check could not look up) with no name from the form or from Slack: the
  // licensing service would create them as "Student", so the form asks for the name.
  if (needName && !known && email) errors[InputId.assignName.block] ??= needName;
  return { errors, email, pool, ...(slackName ? { slackName } : {}) };
}
