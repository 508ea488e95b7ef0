/**
 * The small rules the seat features stand on: where a holder's progress falls in the digest's spread,
 * what a channel post may hold, the reclaim round's settings and moments, which queued messages belong
 * to course requests, and the audit trail's sentences for reclaim answers and for waitlist steps that
 * did not go through.
 */
import { describe, expect, it } from 'vitest';
import { type Digest, emptySpread, spreadBucket, withoutNames } from '../../../src/digest/domain/digest.js';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import { ACTION_WORDS, auditSentence } from '../../../src/kernel/domain/audit-sentence.js';
import {
  DEFAULT_RECLAIM_SETTINGS,
  isReclaimPolicy,
  reclaimSettings,
  roundTimes,
} from '../../../src/reclaim/domain/reclaim.js';
import { askStanding } from '../../../src/reclaim/services/reclaim-preview.js';
import { isFinal, isRequestNotice, isUndecided, neededByProblem } from '../../../src/requests/domain/requests.js';

describe("the digest's spread", () => {
  it('puts 0 %, 1–49 %, 50–99 % and completed holders in their buckets', () => {
    expect(spreadBucket({ progress: 0, completed: null })).toBe('zero');
    expect(spreadBucket({ progress: 49, completed: null })).toBe('low');
    expect(spreadBucket({ progress: 50, completed: null })).toBe('high');
    expect(spreadBucket({ progress: 100, completed: null })).toBe('completed');
    expect(spreadBucket({ progress: 20, completed: '2026-03-01T00:00:00Z' })).toBe('completed');
    expect(emptySpread()).toEqual({ zero: 0, low: 0, high: 0, completed: 0 });
  });

  it("a channel post's digest keeps every count and drops the names", () => {
    const list = { total: 1, listed: [{ name: 'Ada', email: 'ada@school.example' }] };
    const names = { stalled: list, notStarted: list, completedTransferable: list, endingSoon: list };
    const d = { at: 'x', courses: [], names } as unknown as Digest;
    const posted = withoutNames(d);
    expect(posted).not.toHaveProperty('names');
    expect(posted).toMatchObject({ at: 'x', courses: [] });
  });
});

describe('reclaim rounds', () => {
  it('fills unset settings with their defaults and keeps the given ones', () => {
    expect(reclaimSettings({})).toEqual(DEFAULT_RECLAIM_SETTINGS);
    expect(reclaimSettings({ keepDays: 90, deadlineDays: undefined })).toEqual({
      ...DEFAULT_RECLAIM_SETTINGS,
      keepDays: 90,
    });
  });

  it('knows its two no-answer policies and nothing else', () => {
    expect(isReclaimPolicy('release')).toBe(true);
    expect(isReclaimPolicy('list')).toBe(true);
    expect(isReclaimPolicy('revoke')).toBe(false);
    expect(isReclaimPolicy(undefined)).toBe(false);
  });

  it('asks the stalled and the not started, never the completed or the moving', () => {
    const now = new Date('2026-04-01T12:00:00Z');
    const t = { notStartedDays: 14, stalledDays: 30 };
    const base = { progress: 0, completed: null, start: '2026-01-01', changedAt: '2026-03-31T00:00:00Z' };
    expect(askStanding(base, now, t)).toBe('not-started');
    expect(askStanding({ ...base, progress: 40, changedAt: '2026-01-02T00:00:00Z' }, now, t)).toBe('stalled');
    expect(askStanding({ ...base, progress: 40 }, now, t)).toBeUndefined();
    expect(askStanding({ ...base, progress: 100 }, now, t)).toBeUndefined();
  });

  it("puts the reminder and the deadline the configured days after the round's start", () => {
    expect(roundTimes(new Date('2026-04-01T10:00:00Z'), { reminderDay: 4, deadlineDays: 7 })).toEqual({
      remindAt: '2026-04-05T10:00:00.000Z',
      deadlineAt: '2026-04-08T10:00:00.000Z',
    });
  });
});

describe("course requests' queued messages", () => {
  it('are told apart from other features by their kind and request id', () => {
    expect(isRequestNotice({ kind: 'request-received', requestId: 'r1' })).toBe(true);
    expect(isRequestNotice({ kind: 'request-received' })).toBe(false);
    expect(isRequestNotice({ kind: 'reclaim-ask', requestId: 'r1' })).toBe(false);
    expect(isRequestNotice(null)).toBe(false);
    expect(isRequestNotice('request-received')).toBe(false);
  });
});

describe('audit sentences', () => {
  const CHANNEL = { emails: true };
  const entry = (over: Partial<AuditEntry>): AuditEntry => ({
    at: '2026-04-01T10:00:00Z',
    actor: 'U0HOLDER01',
    action: 'reclaim-kept',
    outcome: 'done',
    licenseId: '4001',
    studentName: 'Ada Lovelace',
    ...over,
  });

  it("say a holder's answer to a reclaim round, and a release that did not go through", () => {
    expect(auditSentence(entry({}), CHANNEL)).toMatch(/<@U0HOLDER01> chose to keep license .*4001/);
    expect(auditSentence(entry({ action: 'reclaim-released' }), CHANNEL)).toMatch(/released .* in a reclaim round/);
    expect(auditSentence(entry({ action: 'reclaim-released', outcome: 'failed' }), CHANNEL)).toMatch(
      /tried to release .* in a reclaim round/,
    );
  });

  it('say an automatic return of a finished seat as License Desk, with the day the course was completed', () => {
    const returned = entry({
      actor: 'license-desk',
      action: 'auto-returned',
      courseTitle: 'Optimizing DAX',
      completedOn: '2026-03-02',
    });
    expect(auditSentence(returned, CHANNEL)).toBe(
      'License Desk returned license `4001` of *Ada Lovelace* for *Optimizing DAX* (completed on Mar 2, 2026, automatic return)',
    );
    expect(auditSentence({ ...returned, outcome: 'failed' }, CHANNEL)).toMatch(
      /^License Desk tried to return license `4001` .*\(completed on Mar 2, 2026, automatic return\)$/,
    );
    expect(ACTION_WORDS['auto-returned']).toBe('finished seat returned automatically');
  });

  it('say a refused typed command by its subcommand and what it named, never the words typed after it', () => {
    const typed = (over: Partial<AuditEntry>): AuditEntry => {
      const { licenseId: _, ...rest } = entry({ actor: 'U0VIEWER01', action: 'command', outcome: 'refused' });
      return { ...rest, ...over };
    };
    expect(auditSentence(typed({ command: 'show', licenseId: '4001' }), CHANNEL)).toMatch(
      /^<@U0VIEWER01> tried to use `\/licenses show` on license `4001`/,
    );
    expect(auditSentence(typed({ command: 'reclaim', poolId: '2003' }), CHANNEL)).toBe(
      '<@U0VIEWER01> tried to use `/licenses reclaim` on pool `2003`',
    );
    expect(auditSentence(typed({ command: 'bulk' }), CHANNEL)).toBe('<@U0VIEWER01> tried to use `/licenses bulk`');
    // Something that is no subcommand's name is left out rather than echoed into the trail.
    expect(auditSentence(typed({ command: 'show *everything* <!channel>' }), CHANNEL)).toBe(
      '<@U0VIEWER01> tried to use `/licenses`',
    );
    expect(auditSentence(typed({ command: 'bulk', outcome: 'done' }), CHANNEL)).toBe(
      '<@U0VIEWER01> used `/licenses bulk`',
    );
    expect(ACTION_WORDS.command).toBe('typed command');
  });

  it('say the waitlist steps and expiries that did not go through', () => {
    const request = { requester: 'U0REQUEST1', courseTitle: 'Power BI' };
    expect(auditSentence(entry({ action: 'waitlist-moved', outcome: 'failed', ...request }), CHANNEL)).toMatch(
      /tried to move .*request.* on the waitlist/,
    );
    expect(auditSentence(entry({ action: 'expired', outcome: 'failed', ...request }), CHANNEL)).toMatch(
      /tried to expire/,
    );
    expect(auditSentence(entry({ action: 'assigned', outcome: 'failed', ...request }), CHANNEL)).toMatch(
      /left the waitlist without a seat/,
    );
  });
});

describe('course request rules', () => {
  it('undecided means pending; a final status never changes again', () => {
    expect(isUndecided({ status: 'pending' })).toBe(true);
    expect(isUndecided({ status: 'approved' })).toBe(false);
    expect(isFinal('assigned')).toBe(true);
    expect(isFinal('cancelled')).toBe(true);
    expect(isFinal('approved')).toBe(false);
  });

  it('a "needed by" day must be a day, not past, within a year and before the pool ends', () => {
    const now = new Date('2026-04-01T10:00:00Z');
    expect(neededByProblem('April 3', now)).toBe('Please pick a date.');
    expect(neededByProblem('2026-03-31', now)).toMatch(/has passed/);
    expect(neededByProblem('2027-05-01', now)).toMatch(/within a year \(by Apr 1, 2027\)/);
    expect(neededByProblem('2026-09-01', now, '2026-06-30T23:59:59Z')).toMatch(/The pool ends on Jun 30, 2026/);
    expect(neededByProblem('2026-06-01', now, '2026-06-30T23:59:59Z')).toBeUndefined();
    expect(neededByProblem('2026-04-01', now, 'not a date')).toBeUndefined();
  });
});
