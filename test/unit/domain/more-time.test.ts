/** The rules of a learner's ask for more time, and how the audit trail says it. */
import { describe, expect, it } from 'vitest';
import { type ExtensionRequest, endDateProblem, extensionDue } from '../../../src/extensions/domain/extensions.js';
import { auditSentence } from '../../../src/kernel/domain/audit-sentence.js';

const NOW = new Date('2026-05-10T12:00:00Z');
const END = '2026-06-01T23:59:59Z';
const POOL_END = '2026-09-30T23:59:59Z';

describe('the end date asked for', () => {
  it('is a later day than the license has, not past, and within the pool', () => {
    expect(endDateProblem('2026-07-01', NOW, END, POOL_END)).toBeUndefined();
    expect(endDateProblem('2026-09-30', NOW, END, POOL_END)).toBeUndefined();
    expect(endDateProblem('', NOW, END, POOL_END)).toBe('Please pick a date.');
    expect(endDateProblem('2026-05-09', NOW, END, POOL_END)).toMatch(/That day has passed/);
    expect(endDateProblem('2026-06-01', NOW, END, POOL_END)).toBe(
      'Your license already runs until Jun 1, 2026: pick a later day.',
    );
    expect(endDateProblem('2026-10-01', NOW, END, POOL_END)).toBe(
      'The pool ends on Sep 30, 2026: pick that day or an earlier one.',
    );
  });

  it('an undecided ask is reminded once, then expires, on the course requests’ timers', () => {
    const timers = { remindAfterMs: 24 * 3_600_000, expireAfterMs: 7 * 86_400_000 };
    const r = { status: 'pending', createdAt: '2026-05-09T11:00:00Z' } as ExtensionRequest;
    expect(extensionDue(r, timers, NOW)).toBe('remind');
    expect(extensionDue({ ...r, remindedAt: NOW.toISOString() }, timers, NOW)).toBeUndefined();
    expect(extensionDue(r, timers, new Date('2026-05-16T12:00:00Z'))).toBe('expire');
    expect(extensionDue({ ...r, status: 'extending' }, timers, new Date('2026-05-16T12:00:00Z'))).toBeUndefined();
  });

  it('the audit trail says an ask for more time, not a course request', () => {
    const sentence = auditSentence(
      {
        at: NOW.toISOString(),
        actor: 'U0LEARN001',
        action: 'requested',
        outcome: 'done',
        licenseId: '4012',
        studentName: 'Ada Lovelace',
        courseTitle: 'Mastering DAX',
        endDate: '2026-07-01',
      },
      { emails: true },
    );
    expect(sentence).toMatch(/^<@U0LEARN001> asked for more time on license `4012` .* until Jul 1, 2026/);
  });
});
