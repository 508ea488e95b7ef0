/**
 * Every kind of audit entry, as its writers record it, read as the audit channel's post and as App
 * Home's "Recent changes" line: one sentence of who did what to whom, no escaped mention, no bare
 * Slack id, no internal id (a course request's, a bulk job's), no e-mail on Home.
 */
import { describe, expect, it } from 'vitest';
import { homeRecentLine } from '../../../src/home/blocks/home-recent.js';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import { auditMessage } from '../../../src/kernel/services/audit.js';
import { triedOf } from '../../../src/kernel/services/audit-queue.js';

const AT = '2026-11-25T09:30:00.000Z';
const ADMIN = 'U0MGR00001';
const VIEWER = 'U0VIEW0001';
const MEMBER = 'U0NOROLE01';
const REQ = 'r469f3a85169f';
const JOB = 'b7c1e0a2f9d3';
const course = { poolId: '2002', courseTitle: 'Mastering DAX' };
const ada = { studentName: 'Ada Lovelace', studentEmail: 'ada@contoso.com' };
const request = { ...course, studentEmail: 'nora.quinn@acme-learning.example', requester: MEMBER, requestId: REQ };

type Case = [string, Omit<AuditEntry, 'at'>, { post: RegExp; home: RegExp }];

/** [what, entry, the sentence in the post, the sentence on Home]. */
const CASES: Case[] = [
  [
    'assign done',
    { actor: ADMIN, action: 'assign', outcome: 'done', ...course, ...ada, licenseId: '4001' },
    {
      post: /^<@U0MGR00001> assigned license `4001` for \*Mastering DAX\* to \*Ada Lovelace\*$/,
      home: /^<@U0MGR00001> assigned license `4001` for \*Mastering DAX\* to \*Ada Lovelace\*$/,
    },
  ],
  [
    'assign refused by the service',
    { actor: ADMIN, action: 'assign', outcome: 'refused', ...course, ...ada, detail: 'already enrolled' },
    {
      post: /^<@U0MGR00001> tried to assign a license for \*Mastering DAX\* to \*Ada Lovelace\*$/,
      home: /^<@U0MGR00001> tried to assign a license for \*Mastering DAX\* to \*Ada Lovelace\*$/,
    },
  ],
  [
    'assign refused by the gate',
    { actor: VIEWER, action: 'assign', outcome: 'refused', poolId: '2002', detail: 'not a license admin (command)' },
    {
      post: /^<@U0VIEW0001> tried to assign a license from pool `2002`$/,
      home: /^<@U0VIEW0001> tried to assign a license from pool `2002`$/,
    },
  ],
  [
    'a typed command refused by the gate',
    {
      actor: VIEWER,
      action: 'command',
      outcome: 'refused',
      command: 'bulk',
      detail: 'not a license admin (command)',
    },
    {
      post: /^<@U0VIEW0001> tried to use `\/licenses bulk`$/,
      home: /^<@U0VIEW0001> tried to use `\/licenses bulk`$/,
    },
  ],
  [
    'assign of an approved course request',
    { actor: ADMIN, action: 'assign', outcome: 'done', ...request, studentName: 'Nora Quinn', licenseId: '4002' },
    {
      post: /^<@U0MGR00001> assigned license `4002` for \*Mastering DAX\* to \*Nora Quinn\* \(course request of <@U0NOROLE01>\)$/,
      home: /^<@U0MGR00001> assigned license `4002` for \*Mastering DAX\* to \*Nora Quinn\* \(course request of <@U0NOROLE01>\)$/,
    },
  ],
  [
    'assign of a course request refused',
    { actor: ADMIN, action: 'assign', outcome: 'refused', ...request, detail: 'the pool no longer exists' },
    {
      post: /^<@U0MGR00001> tried to assign a license for \*Mastering DAX\* to <@U0NOROLE01>$/,
      home: /^<@U0MGR00001> tried to assign a license for \*Mastering DAX\* to <@U0NOROLE01>$/,
    },
  ],
  [
    'recycle done',
    { actor: ADMIN, action: 'recycle', outcome: 'done', ...course, ...ada, licenseId: '4003' },
    {
      post: /^<@U0MGR00001> freed a seat of \*Mastering DAX\* and assigned license `4003` to \*Ada Lovelace\*$/,
      home: /^<@U0MGR00001> freed a seat of \*Mastering DAX\* and assigned license `4003` to \*Ada Lovelace\*$/,
    },
  ],
  [
    'recycle refused',
    { actor: ADMIN, action: 'recycle', outcome: 'refused', poolId: '2003', ...ada, detail: 'pool not full' },
    {
      post: /^<@U0MGR00001> tried to free a seat in pool `2003` for \*Ada Lovelace\*$/,
      home: /^<@U0MGR00001> tried to free a seat in pool `2003` for \*Ada Lovelace\*$/,
    },
  ],
  [
    'end date changed',
    {
      actor: ADMIN,
      action: 'extend',
      outcome: 'done',
      ...course,
      ...ada,
      licenseId: '4001',
      previousEndDate: '2026-12-31',
      endDate: '2027-01-31',
    },
    {
      post: /^<@U0MGR00001> changed the end date of license `4001` of \*Ada Lovelace\* for \*Mastering DAX\* from Dec 31, 2026 to Jan 31, 2027$/,
      home: /^<@U0MGR00001> changed the end date of license `4001` of \*Ada Lovelace\* for \*Mastering DAX\* from Dec 31, 2026 to Jan 31, 2027$/,
    },
  ],
  [
    'end date refused by the gate',
    { actor: VIEWER, action: 'extend', outcome: 'refused', licenseId: '4001', detail: 'not a license admin' },
    {
      post: /^<@U0VIEW0001> tried to change the end date of license `4001`$/,
      home: /^<@U0VIEW0001> tried to change the end date of license `4001`$/,
    },
  ],
  [
    'revoke done',
    { actor: ADMIN, action: 'revoke', outcome: 'done', ...course, ...ada, licenseId: '4001' },
    {
      post: /^<@U0MGR00001> revoked license `4001` of \*Ada Lovelace\* for \*Mastering DAX\*$/,
      home: /^<@U0MGR00001> revoked license `4001` of \*Ada Lovelace\* for \*Mastering DAX\*$/,
    },
  ],
  [
    'revoke refused by the gate, no license named',
    { actor: VIEWER, action: 'revoke', outcome: 'refused', detail: 'not a license admin' },
    { post: /^<@U0VIEW0001> tried to revoke a license$/, home: /^<@U0VIEW0001> tried to revoke a license$/ },
  ],
  [
    'bulk row',
    {
      actor: ADMIN,
      action: 'bulk-assign',
      outcome: 'done',
      ...course,
      ...ada,
      licenseId: '4010',
      jobId: JOB,
      quiet: true,
    },
    {
      post: /^<@U0MGR00001> assigned license `4010` for \*Mastering DAX\* to \*Ada Lovelace\* in bulk$/,
      home: /^<@U0MGR00001> assigned license `4010` for \*Mastering DAX\* to \*Ada Lovelace\* in bulk$/,
    },
  ],
  [
    'bulk summary',
    {
      actor: ADMIN,
      action: 'bulk-assign',
      outcome: 'done',
      ...course,
      jobId: JOB,
      detail: 'finished, 3 lines: 2 assigned, 1 refused.',
    },
    {
      post: /^<@U0MGR00001> ran a bulk assign for \*Mastering DAX\*$/,
      home: /^<@U0MGR00001> ran a bulk assign for \*Mastering DAX\*$/,
    },
  ],
  [
    'requested',
    { actor: MEMBER, action: 'requested', outcome: 'done', ...request, detail: 'asked with /licenses request' },
    {
      post: /^<@U0NOROLE01> requested a license for \*Mastering DAX\*$/,
      home: /^<@U0NOROLE01> requested a license for \*Mastering DAX\*$/,
    },
  ],
  [
    'approved',
    { actor: ADMIN, action: 'approved', outcome: 'done', ...request, licenseId: '4002' },
    {
      post: /^<@U0MGR00001> approved <@U0NOROLE01>’s request for \*Mastering DAX\*$/,
      home: /^<@U0MGR00001> approved <@U0NOROLE01>’s request for \*Mastering DAX\*$/,
    },
  ],
  [
    'approval of their own request refused',
    {
      ...request,
      actor: MEMBER,
      action: 'approved',
      outcome: 'refused',
      detail: 'nobody may decide their own request',
    },
    {
      post: /^<@U0NOROLE01> tried to approve their own request for \*Mastering DAX\*$/,
      home: /^<@U0NOROLE01> tried to approve their own request for \*Mastering DAX\*$/,
    },
  ],
  [
    'approval refused by the gate',
    { actor: VIEWER, action: 'approved', outcome: 'refused', requestId: REQ, detail: 'not a license admin' },
    {
      post: /^<@U0VIEW0001> tried to approve a course request$/,
      home: /^<@U0VIEW0001> tried to approve a course request$/,
    },
  ],
  [
    'denied',
    { actor: ADMIN, action: 'denied', outcome: 'done', ...request },
    {
      post: /^<@U0MGR00001> denied <@U0NOROLE01>’s request for \*Mastering DAX\*$/,
      home: /^<@U0MGR00001> denied <@U0NOROLE01>’s request for \*Mastering DAX\*$/,
    },
  ],
  [
    'cancelled by the requester',
    { actor: MEMBER, action: 'cancelled', outcome: 'done', ...request },
    {
      post: /^<@U0NOROLE01> cancelled their own request for \*Mastering DAX\*$/,
      home: /^<@U0NOROLE01> cancelled their own request for \*Mastering DAX\*$/,
    },
  ],
  [
    'expired',
    { actor: 'license-desk', action: 'expired', outcome: 'done', ...request, detail: 'nobody decided in time' },
    {
      post: /^<@U0NOROLE01>’s request for \*Mastering DAX\* expired$/,
      home: /^<@U0NOROLE01>’s request for \*Mastering DAX\* expired$/,
    },
  ],
  [
    'put on the waitlist',
    { actor: ADMIN, action: 'waitlisted', outcome: 'done', ...course, requester: MEMBER, requestId: REQ, place: 1 },
    {
      post: /^<@U0MGR00001> put <@U0NOROLE01>’s request for \*Mastering DAX\* on the waitlist \(number 1 in line\)$/,
      home: /^<@U0MGR00001> put <@U0NOROLE01>’s request for \*Mastering DAX\* on the waitlist \(number 1 in line\)$/,
    },
  ],
  [
    'waitlist refused by the gate',
    { actor: VIEWER, action: 'waitlisted', outcome: 'refused', requestId: REQ, detail: 'not a license admin' },
    {
      post: /^<@U0VIEW0001> tried to put a course request on the waitlist$/,
      home: /^<@U0VIEW0001> tried to put a course request on the waitlist$/,
    },
  ],
  [
    'moved in the waitlist',
    { actor: ADMIN, action: 'waitlist-moved', outcome: 'done', ...course, requester: MEMBER, requestId: REQ, place: 2 },
    {
      post: /^<@U0MGR00001> moved <@U0NOROLE01>’s request for \*Mastering DAX\* to number 2 on the waitlist$/,
      home: /^<@U0MGR00001> moved <@U0NOROLE01>’s request for \*Mastering DAX\* to number 2 on the waitlist$/,
    },
  ],
  [
    'removed from the waitlist',
    { actor: ADMIN, action: 'waitlist-removed', outcome: 'done', ...course, requester: MEMBER, requestId: REQ },
    {
      post: /^<@U0MGR00001> removed <@U0NOROLE01>’s request for \*Mastering DAX\* from the waitlist$/,
      home: /^<@U0MGR00001> removed <@U0NOROLE01>’s request for \*Mastering DAX\* from the waitlist$/,
    },
  ],
  [
    'waitlist removal refused by the gate',
    { actor: VIEWER, action: 'waitlist-removed', outcome: 'refused', requestId: REQ, detail: 'not a license admin' },
    {
      post: /^<@U0VIEW0001> tried to remove a course request from the waitlist$/,
      home: /^<@U0VIEW0001> tried to remove a course request from the waitlist$/,
    },
  ],
  [
    'a waitlisted request got a seat',
    {
      actor: ADMIN,
      action: 'assigned',
      outcome: 'done',
      ...course,
      requester: MEMBER,
      requestId: REQ,
      licenseId: '4005',
    },
    {
      post: /^<@U0NOROLE01>’s request for \*Mastering DAX\* got license `4005` from the waitlist when a seat freed up, approved by <@U0MGR00001>$/,
      home: /^<@U0NOROLE01>’s request for \*Mastering DAX\* got license `4005` from the waitlist when a seat freed up, approved by <@U0MGR00001>$/,
    },
  ],
  [
    'a waitlisted request could not take the seat',
    {
      actor: ADMIN,
      action: 'assigned',
      outcome: 'failed',
      ...course,
      requester: MEMBER,
      requestId: REQ,
      detail: 'they are no longer in the Slack workspace',
    },
    {
      post: /^<@U0NOROLE01>’s request for \*Mastering DAX\* left the waitlist without a seat, approved by <@U0MGR00001>$/,
      home: /^<@U0NOROLE01>’s request for \*Mastering DAX\* left the waitlist without a seat, approved by <@U0MGR00001>$/,
    },
  ],
];

/** The sentence of the post: its first line, after the outcome mark. */
const postSentence = (e: AuditEntry) => {
  const section = (auditMessage(e).blocks[0] as { text: { text: string } }).text.text;
  return (section.split('\n')[0] ?? '').replace(/^:[a-z_]+: [a-z ]+ · /, '');
};
const homeSentence = (e: AuditEntry) => homeRecentLine(e).replace(/^:[a-z_]+: <!date[^>]*> · /, '');

describe('every kind of audit entry reads as a sentence of who did what to whom', () => {
  it.each(CASES)('%s', (_what, fields, want) => {
    const entry: AuditEntry = { at: AT, ...fields };
    const post = auditMessage(entry);
    const home = homeRecentLine(entry);
    expect(postSentence(entry)).toMatch(want.post);
    expect(homeSentence(entry)).toMatch(want.home);
    for (const said of [JSON.stringify(post), home]) {
      expect(said).not.toContain('&lt;@');
      expect(said).not.toContain(REQ);
      expect(said).not.toContain(JOB);
      // A Slack user id only inside a mention.
      expect(said.replace(/<@[UW][A-Z0-9]+>/g, '')).not.toMatch(/\b[UW]0[A-Z0-9]{6,}\b/);
      expect(said).not.toMatch(/ · (·|$)|: ·|of ·|for ·/);
    }
    expect(home).not.toContain('@contoso.com');
    expect(home).not.toContain('@acme-learning.example');
  });

  it('the post keeps the facts the sentence does not hold: the e-mail, the pool, the reason', () => {
    const entry: AuditEntry = {
      at: AT,
      actor: ADMIN,
      action: 'assign',
      outcome: 'refused',
      ...course,
      ...ada,
      detail: 'already enrolled',
    };
    const text = (auditMessage(entry).blocks[0] as { text: { text: string } }).text.text;
    expect(text).toContain('student ada@contoso.com · pool `2002`');
    expect(text).toContain('_already enrolled_');
  });

  it('a name or course from the API is escaped, and an actor that is not a Slack id mentions nobody', () => {
    const entry: AuditEntry = {
      at: AT,
      actor: '<!channel>',
      action: 'revoke',
      outcome: 'done',
      licenseId: '4001',
      studentName: '<!here> Eve',
      courseTitle: 'A & B',
    };
    const home = homeRecentLine(entry);
    expect(home).toContain('someone revoked license `4001` of *&lt;!here&gt; Eve* for *A &amp; B*');
    expect(JSON.stringify(auditMessage(entry))).not.toContain('<!here>');
  });

  it('a burst of refusals names what was tried in words, not as an action name', () => {
    const refused = (action: AuditEntry['action'], more: Partial<AuditEntry> = {}) =>
      triedOf({ at: AT, actor: VIEWER, action, outcome: 'refused', ...more });
    expect(refused('extend', { licenseId: '4001' })).toBe('extend license `4001`');
    expect(refused('approved', { requestId: REQ })).toBe('approve a request');
    expect(refused('waitlist-moved', { requestId: REQ })).toBe('move a request on the waitlist');
    expect(refused('waitlist-removed')).toBe('remove a request from the waitlist');
    expect(refused('bulk-assign', { poolId: '2002' })).toBe('bulk assign pool `2002`');
  });
});
