/**
 * A member's own licenses, found by their e-mail (docs/learners.md): one read of the licensing API's
 * student by e-mail (GET /v1/student?email=, through the shared limiter like every call), the active
 * licenses only, with the progress the records hold where they know the license (the daily pass's),
 * else the API's. Nobody else's: the e-mail is the one Slack shows for the person asking.
 */
import type { Student } from '../../kernel/domain/types.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import type { LicensingClient } from '../../kernel/licensing/types.js';
import { errorSentence } from '../../kernel/services/error-text.js';
import { INTERACTIVE } from '../../kernel/services/interactive.js';
import type { ProgressStore } from '../../progress/index.js';
import { type MineOutcome, type MyLicense, myLicenseOf } from '../domain/learners.js';

/**
 * App Home's "Your licenses": the progress records only (App Home spends no licensing request of its
 * own on it), the courses named from the dashboard's last reading of the pools when it has them.
 */
export async function recordedLicenses(
  progress: Pick<ProgressStore, 'holders'>,
  email: string,
  titles: ReadonlyMap<string, string>,
): Promise<MineOutcome> {
  const held = await progress.holders({ email });
  if (held.length === 0) return { kind: 'none-recorded', email };
  const licenses = held
    .map((p) => myLicenseOf(p, titles))
    .sort((a, b) => a.end.localeCompare(b.end) || a.licenseId.localeCompare(b.licenseId));
  return { kind: 'listed', email, licenses };
}

export async function myLicenses(
  licensing: LicensingClient,
  progress: Pick<ProgressStore, 'holders'> | undefined,
  email: string,
): Promise<MineOutcome> {
  let student: Student;
  try {
    student = await licensing.students.find({ email }, INTERACTIVE);
  } catch (error) {
    if (isLicensingError(error) && error.kind === 'not-found') return { kind: 'no-student', email };
    return { kind: 'unread', sentence: errorSentence(error, 'license') };
  }
  // The student's own e-mail must be the one asked for: a service that answered with another is ignored.
  if (student.email.trim().toLowerCase() !== email.trim().toLowerCase()) return { kind: 'no-student', email };
  const recorded = progress
    ? new Map((await progress.holders({ email }).catch(() => [])).map((p) => [p.licenseId, p]))
    : new Map();
  const licenses: MyLicense[] = student.courses
    .filter((c) => c.licenseActive)
    .map((c) => {
      const seen = recorded.get(c.licenseId);
      return {
        licenseId: c.licenseId,
        poolId: c.poolId,
        courseTitle: c.title,
        progress: seen ? seen.progress : c.progress,
        completed: seen ? seen.completed : c.completed,
        end: c.end,
      };
    })
    .sort((a, b) => a.end.localeCompare(b.end) || a.licenseId.localeCompare(b.licenseId));
  return { kind: 'listed', email, licenses };
}
