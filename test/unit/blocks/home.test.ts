import { describe, expect, it } from 'vitest';
import { buildAlertMessage } from '../../../src/alerts/blocks/alerts.js';
import { findAlerts } from '../../../src/alerts/domain/alerts.js';
import { groupAlerts } from '../../../src/alerts/services/alerts.js';
import { buildDashboardHomeView, buildRefusalHomeView } from '../../../src/home/blocks/home.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import { allText, inDays, makeLicense, makePool, NOW } from '../../support/fixtures.js';

const HOSTILE = `<!channel> & ${'Ω'.repeat(300)} <@U0ALL>`;
const pools = Array.from({ length: 200 }, (_, i) =>
  makePool({ id: `p${i}`, course: { id: `c${i}`, title: HOSTILE }, end: inDays(5 + i), availableLicenses: i % 3 }),
);
const ending = Array.from({ length: 100 }, (_, i) =>
  makeLicense({
    id: `l${i}`,
    poolId: `p${i}`,
    end: inDays(1 + (i % 13)),
    student: { id: `${i}`, name: HOSTILE, email: `s${i}@x.com` },
  }),
);
const recent = Array.from({ length: 8 }, () => ({
  at: NOW.toISOString(),
  actor: 'U0MGR00001',
  action: 'assign' as const,
  outcome: 'done' as const,
  studentName: HOSTILE,
  studentEmail: 'secret@x.com',
  courseTitle: HOSTILE,
}));

describe('App Home view', () => {
  it('stays within a Home tab’s limits with 200 pools, 100 ending licenses and hostile names; no e-mails, no pings', () => {
    const view = buildDashboardHomeView({
      canChange: true,
      data: { pools, ending, recent, asOf: NOW },
      now: NOW,
      sandbox: true,
    });
    expect(checkBlockKitLimits(view, 'view')).toEqual([]);
    const text = allText(view);
    expect(text).not.toMatch(/<!channel>|<@U0ALL>|@x\.com/);
    expect(text).toContain('185 more pools');
    expect(text).toContain('80 more');
  });

  it('loading, over-budget scan and refusal views', () => {
    expect(allText(buildDashboardHomeView({ canChange: false, data: undefined, now: NOW, sandbox: false }))).toContain(
      'Reading your pools',
    );
    const pools2 = buildDashboardHomeView({
      canChange: false,
      data: { pools, ending: undefined, recent: [], asOf: NOW },
      now: NOW,
      sandbox: false,
    });
    expect(allText(pools2)).toContain('share of the licensing rate budget');
    const refusal = buildRefusalHomeView('<@U0MGR00001>', false);
    expect(allText(refusal)).toContain('<@U0MGR00001>');
    expect(checkBlockKitLimits(refusal, 'view')).toEqual([]);
  });
});

describe('alert messages', () => {
  it('every group stays within a message’s limits, names students, shows no e-mail', () => {
    const holders = Array.from({ length: 500 }, (_, i) =>
      makeLicense({
        id: `h${i}`,
        poolId: 'p5',
        end: inDays(200),
        student: { id: `${i}`, name: HOSTILE, email: `h${i}@x.com` },
      }),
    );
    const alerts = findAlerts({ pools, licenses: [...ending, ...holders], now: NOW, sent: () => false });
    const groups = groupAlerts(alerts);
    expect(groups.length).toBeGreaterThan(3);
    for (const g of groups) {
      const message = buildAlertMessage(g, NOW);
      expect(checkBlockKitLimits(message)).toEqual([]);
      expect(allText(message)).not.toMatch(/<!channel>|@x\.com/);
    }
  });
});
