/**
 * `/licenses history`'s page: each entry says what, how it ended, when, who and (end-date changes) the
 * old and new end; Previous / Next carry keyset cursors the codec reads back; Export carries the first
 * page; nothing found names what was looked for and the window; the longest page stays within Slack's
 * limits.
 */
import { describe, expect, it } from 'vitest';
import { buildHistoryMessage } from '../../../src/history/blocks/history.js';
import { ActionId } from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import { decodeNav } from '../../../src/kernel/blocks/nav.js';
import type { AuditEntry } from '../../../src/kernel/domain/audit-entry.js';
import type { HistoryPage } from '../../../src/kernel/domain/history.js';
import { allText, buttons } from '../../support/fixtures.js';

const extend: AuditEntry = {
  at: '2026-11-20T09:30:00.000Z',
  actor: 'U0MGR00001',
  action: 'extend',
  outcome: 'done',
  licenseId: '4001',
  poolId: '2001',
  studentName: 'Ada Lovelace',
  studentEmail: 'ada@contoso.com',
  courseTitle: 'Mastering DAX',
  previousEndDate: '2026-12-31',
  endDate: '2027-03-31',
};

const page = (over: Partial<HistoryPage> = {}): HistoryPage => ({
  subject: { kind: 'email', email: 'ada@contoso.com' },
  page: 1,
  items: [{ id: 41, entry: extend }],
  hasNewer: false,
  hasOlder: false,
  newestId: 41,
  oldestId: 41,
  ...over,
});

const byId = (message: unknown, id: string) => buttons(message).find((b) => b.action_id === id);

describe('the history page', () => {
  it('an end-date change: what, outcome, when, who, the sentence, the old and the new end', () => {
    const m = buildHistoryMessage(page());
    const text = allText(m);
    expect(text).toContain('*End date changed* (done)');
    const seconds = Date.parse(extend.at) / 1000;
    expect(text).toContain(`<!date^${seconds}^{date_short} at {time}|Nov 20, 2026 at 09:30 UTC>`);
    expect(text).toContain('by <@U0MGR00001>');
    expect(text).toContain('<@U0MGR00001> changed the end date of license `4001` of *Ada Lovelace*');
    expect(text).toContain('End date: Dec 31, 2026 → Mar 31, 2027');
    expect(m.text).toContain('History of ada@contoso.com, the whole audit trail, page 1');
    expect(checkBlockKitLimits(m)).toEqual([]);
  });

  it('a refusal and a failure say so, with the reason; License Desk is named', () => {
    const text = allText(
      buildHistoryMessage(
        page({
          items: [
            {
              id: 3,
              entry: { ...extend, action: 'revoke', outcome: 'refused', detail: 'not a license admin (command)' },
            },
            { id: 2, entry: { ...extend, action: 'assigned', actor: 'license-desk', outcome: 'failed' } },
          ],
        }),
      ),
    );
    expect(text).toContain(':no_entry_sign: *Revoked* (refused)');
    expect(text).toContain('_not a license admin (command)_');
    expect(text).toContain(':x: *Assigned from the waitlist* (failed)');
    expect(text).toContain('by License Desk');
  });

  it('Next carries the oldest row, Previous the newest (page 1 afresh from page 2), Export the first page', () => {
    const items = Array.from({ length: 10 }, (_, k) => ({ id: 100 - k, entry: extend }));
    const base = { items, newestId: 100, oldestId: 91, hasOlder: true, days: 30, since: '2026-10-26T10:00:00.000Z' };
    const p3 = buildHistoryMessage(page({ ...base, page: 3, hasNewer: true }));
    const common = {
      view: 'history',
      subject: { kind: 'email', email: 'ada@contoso.com' },
      days: 30,
      since: base.since,
    };
    expect(decodeNav(byId(p3, ActionId.navNext)?.value)).toEqual({ ...common, page: 4, before: 91 });
    expect(decodeNav(byId(p3, ActionId.navPrevious)?.value)).toEqual({ ...common, page: 2, after: 100 });
    expect(decodeNav(byId(p3, ActionId.historyExport)?.value)).toEqual({ ...common, page: 1 });
    const p2 = buildHistoryMessage(page({ ...base, page: 2, hasNewer: true }));
    expect(decodeNav(byId(p2, ActionId.navPrevious)?.value)).toEqual({ ...common, page: 1 });
    expect(allText(p2)).toContain('the last 30 days · newest first · page 2, more after');
    const p1 = buildHistoryMessage(page({ ...base, hasOlder: false }));
    expect(buttons(p1).map((b) => b.action_id)).toEqual([ActionId.historyExport]);
  });

  it.each<[string, HistoryPage['subject'], number | undefined, string]>([
    [
      'an e-mail',
      { kind: 'email', email: 'ada@contoso.com' },
      7,
      'entries whose student or requester e-mail is ada@contoso.com, in the last 7 days',
    ],
    [
      'a member',
      { kind: 'user', userId: 'U0ADA00001', email: 'ada@contoso.com' },
      undefined,
      'entries made by <@U0ADA00001> or about their course requests, and entries about ada@contoso.com, in the whole audit trail',
    ],
    ['an id', { kind: 'id', id: '2001' }, 1, 'entries about license `2001` or pool `2001`, in the last day'],
  ])('nothing found for %s names what was looked for and the window', (_what, subject, days, said) => {
    const m = buildHistoryMessage(
      (({ newestId: _n, oldestId: _o, ...rest }) => rest)(page({ subject, ...(days ? { days } : {}), items: [] })),
    );
    expect(m.text).toBe(`No audit entries found: I looked for ${said}.`);
    expect(buttons(m)).toEqual([]);
  });

  it('ten of the longest entries a page stay within Block Kit limits, their text escaped', () => {
    const long: AuditEntry = {
      ...extend,
      action: 'recycle',
      outcome: 'failed',
      studentName: `<!channel> ${'N'.repeat(500)}`,
      courseTitle: 'C'.repeat(500),
      studentEmail: `${'e'.repeat(240)}@contoso.com`,
      licenseId: 'L'.repeat(64),
      poolId: 'P'.repeat(64),
      detail: `<!here> ${'d'.repeat(3000)}`,
    };
    const m = buildHistoryMessage(
      page({
        subject: { kind: 'email', email: `${'e'.repeat(240)}@contoso.com` },
        items: Array.from({ length: 10 }, (_, k) => ({ id: 1000 - k, entry: long })),
        page: 9999,
        hasNewer: true,
        hasOlder: true,
        newestId: Number.MAX_SAFE_INTEGER,
        oldestId: Number.MAX_SAFE_INTEGER - 9,
        days: 36_500,
        since: '1926-12-01T00:00:00.000Z',
        emailProblem: 'Slack is busy right now.',
      }),
    );
    expect(checkBlockKitLimits(m)).toEqual([]);
    expect(allText(m)).not.toContain('<!channel>');
    expect(allText(m)).not.toContain('<!here>');
    for (const b of buttons(m)) expect(decodeNav(b.value)).toBeDefined();
  });
});
