/** The learner's rules (src/learners/domain/learners.ts): the reminder window, the weekly cap, the setting, whose license. */
import { describe, expect, it } from 'vitest';
import { isOwn, learnerSettings, remindWindow, weekPassed } from '../../../src/learners/domain/learners.js';

const now = new Date('2026-11-25T10:00:00.000Z');

describe('learner rules', () => {
  it('the window runs from after today to LEARNER_REMIND_DAYS ahead, by end day', () => {
    expect(remindWindow(now, 7)).toEqual({ after: '2026-11-25', until: '2026-12-02' });
  });

  it('one reminder a week: not before seven days have passed since the last', () => {
    expect(weekPassed(undefined, now)).toBe(true);
    expect(weekPassed('2026-11-19T10:00:00.001Z', now)).toBe(false);
    expect(weekPassed('2026-11-18T10:00:00.000Z', now)).toBe(true);
  });

  it('LEARNER_REMIND_DAYS: unset is 7, off is none', () => {
    expect(learnerSettings(undefined)).toEqual({ remindDays: 7 });
    expect(learnerSettings('off')).toEqual({ remindDays: undefined });
    expect(learnerSettings('30')).toEqual({ remindDays: 30 });
  });

  it('a license is one’s own by its student’s e-mail, whatever the case', () => {
    const license = { student: { id: '1', name: 'Ada', email: 'Ada.Lovelace@contoso.com' } };
    expect(isOwn(license, 'ada.lovelace@contoso.com')).toBe(true);
    expect(isOwn(license, 'grace@contoso.com')).toBe(false);
  });
});
