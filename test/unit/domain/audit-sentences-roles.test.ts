/**
 * The audit trail's sentences for roles, delegations, escalations and mass changes held for a second
 * admin: what a person reads in the audit channel, App Home and history, done and refused.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import { ACTION_WORDS, auditSentence } from '../../../src/kernel/domain/audit-sentence.js';

const CHANNEL = { emails: true };
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  at: '2026-11-27T10:00:00Z',
  actor: 'U0OWNER001',
  action: 'role-given',
  outcome: 'done',
  ...over,
});
const say = (over: Partial<AuditEntry>) => auditSentence(entry(over), CHANNEL);

describe('roles given and taken', () => {
  it('name the person or the group, the role and its pools', () => {
    expect(say({ subject: 'U0PADMIN01', role: 'admin', scope: 'pools `2001`, `2003`' })).toBe(
      '<@U0OWNER001> gave <@U0PADMIN01> the admin role on pools `2001`, `2003`',
    );
    expect(say({ action: 'role-taken', subject: 'S0GROUP001', role: 'viewer', scope: 'every pool' })).toBe(
      '<@U0OWNER001> took away the viewer role on every pool from <!subteam^S0GROUP001>',
    );
    expect(say({ outcome: 'refused', subject: 'U0PADMIN01', role: 'viewer' })).toBe(
      '<@U0OWNER001> tried to give <@U0PADMIN01> the viewer role',
    );
    expect(say({ action: 'role-taken', outcome: 'refused', subject: 'U0PADMIN01', role: 'admin' })).toBe(
      '<@U0OWNER001> tried to take away the admin role from <@U0PADMIN01>',
    );
  });
});

describe('delegations and decisions made for someone away', () => {
  const d = { action: 'delegated' as const, actor: 'U0APPROV01', delegate: 'U0DELEG001' };
  it('say each step of a delegation, with its days', () => {
    const days = { fromDay: '2026-12-01', untilDay: '2026-12-05' };
    expect(say({ ...d, ...days })).toMatch(
      /^<@U0APPROV01> delegated their approvals to <@U0DELEG001> from .+ until .+$/,
    );
    expect(say({ ...d, ...days, detail: 'waiting' })).toContain('(waiting for an owner’s yes)');
    expect(say({ ...d, actor: 'U0OWNER001', onBehalfOf: 'U0APPROV01', detail: 'accepted' })).toBe(
      '<@U0OWNER001> accepted <@U0APPROV01>’s delegation of approvals to <@U0DELEG001>',
    );
    expect(say({ ...d, actor: 'U0OWNER001', detail: 'refused' })).toBe(
      '<@U0OWNER001> refused their delegation of approvals to <@U0DELEG001>',
    );
    expect(say({ ...d, detail: 'ended' })).toBe('<@U0APPROV01> ended their delegation of approvals to <@U0DELEG001>');
    expect(say({ ...d, delegate: 'not-a-user', outcome: 'refused' })).toBe(
      '<@U0APPROV01> tried to delegate approvals to a delegate',
    );
  });

  it('a decision by a delegate says for whom; an escalation says nobody decided in time', () => {
    const decided = say({
      action: 'approved',
      actor: 'U0DELEG001',
      onBehalfOf: 'U0APPROV01',
      requester: 'U0ASKER001',
      courseTitle: 'Mastering DAX',
    });
    expect(decided).toContain('decided by <@U0DELEG001> for <@U0APPROV01>');
    expect(say({ action: 'denied', actor: 'U0DELEG001', onBehalfOf: 'bogus', requester: 'U0ASKER001' })).not.toContain(
      'decided by',
    );
    expect(say({ action: 'escalated', actor: 'license-desk', requester: 'U0ASKER001' })).toMatch(
      /was escalated: nobody decided it in time$/,
    );
  });
});

describe('mass changes held for a second admin', () => {
  const m = { requester: 'U0SUBMIT01', courseTitle: 'Mastering DAX' };
  it('say who held, approved, rejected, let expire or sent one alone', () => {
    expect(say({ ...m, action: 'mass-change-held', actor: 'U0SUBMIT01' })).toContain(
      '<@U0SUBMIT01> asked a second admin to approve a mass change',
    );
    expect(say({ ...m, action: 'mass-change-approved', actor: 'U0SECOND01' })).toContain(
      '<@U0SECOND01> approved <@U0SUBMIT01>’s mass change',
    );
    expect(say({ ...m, action: 'mass-change-approved', actor: 'U0SUBMIT01', outcome: 'refused' })).toContain(
      '<@U0SUBMIT01> tried to approve their own mass change',
    );
    expect(say({ ...m, action: 'mass-change-rejected', actor: 'U0SECOND01' })).toContain('rejected');
    expect(say({ ...m, action: 'mass-change-rejected', actor: 'U0SECOND01', outcome: 'refused' })).toContain(
      'tried to reject',
    );
    expect(say({ ...m, action: 'mass-change-expired', actor: 'license-desk' })).toMatch(
      /^<@U0SUBMIT01>’s mass change.* expired without a second admin's decision$/,
    );
    expect(say({ action: 'mass-change-expired', actor: 'license-desk' })).toMatch(/^A mass change/);
    expect(say({ ...m, action: 'mass-change-alone', actor: 'U0SUBMIT01' })).toContain(
      'sent a mass change for *Mastering DAX* with nobody else to approve it',
    );
  });

  it('every new action has its words', () => {
    for (const action of [
      'role-given',
      'role-taken',
      'delegated',
      'escalated',
      'mass-change-held',
      'mass-change-approved',
      'mass-change-rejected',
      'mass-change-expired',
      'mass-change-alone',
    ] as const) {
      expect(ACTION_WORDS[action]).toMatch(/\w/);
    }
  });
});
