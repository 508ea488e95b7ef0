/** The reclaim messages stay within Slack's limits at any size, and say what a person needs to read. */
import { describe, expect, it } from 'vitest';
import { withSandboxMarker } from '../../../src/blocks/common.js';
import { checkBlockKitLimits } from '../../../src/blocks/limits.js';
import {
  buildReclaimPreviewMessage,
  buildReclaimReminderMessage,
  buildReclaimRoundMessage,
  decodeReclaimStart,
  encodeReclaimStart,
} from '../../../src/blocks/reclaim.js';
import { DEFAULT_RECLAIM_SETTINGS, type ReclaimCandidate } from '../../../src/domain/reclaim.js';

const candidate = (i: number): ReclaimCandidate => ({
  licenseId: String(400000 + i),
  poolId: `20${i % 40}`,
  courseTitle: `A course with a rather long title number ${i} `.repeat(3),
  studentEmail: `a.very.long.student.address.${i}@some-long-domain-name.example`,
  studentName: `Student With A Long Name ${i} `.repeat(3),
  standing: i % 2 ? 'stalled' : 'not-started',
  progress: i % 2 ? 40 : 0,
  since: '2026-09-01T10:00:00.000Z',
  watched: i % 3 === 0,
  daysHeld: 100 + i,
  slackUser: `U0S${String(i).padStart(7, '0')}`,
});

describe('reclaim messages', () => {
  it('a preview of 40 pools with 60 holders each stays within the limits, sandbox marker included', () => {
    const pools = Array.from({ length: 40 }, (_, p) => ({
      poolId: `20${p}`,
      courseTitle: `Course ${p}`,
      waiting: p,
      ask: Array.from({ length: 60 }, (_, i) => candidate(p * 100 + i)),
      notInSlack: Array.from({ length: 60 }, (_, i) => candidate(p * 100 + 60 + i)),
      keptRecently: 2,
      alreadyAsked: 1,
    }));
    const message = buildReclaimPreviewMessage({
      kind: 'preview',
      pools,
      untransferable: 2,
      settings: DEFAULT_RECLAIM_SETTINGS,
    });
    expect(checkBlockKitLimits(withSandboxMarker(message, true))).toEqual([]);
    expect(message.text).toContain('2400 holders would be asked, 2400 cannot be asked');
  });

  it('the round message lists many unanswered within the limits; a reminder of 30 rounds too', () => {
    const listed = Array.from({ length: 300 }, (_, i) => ({
      studentName: candidate(i).studentName,
      studentEmail: candidate(i).studentEmail,
      courseTitle: candidate(i).courseTitle,
      licenseId: candidate(i).licenseId,
    }));
    const round = buildReclaimRoundMessage({
      id: 'rr1',
      admin: 'U0MGR00001',
      policy: 'list',
      closed: true,
      deadlineAt: '2026-12-02T10:00:00.000Z',
      asked: 300,
      kept: 0,
      released: 0,
      noAnswer: 300,
      notInSlack: 4,
      failed: 0,
      listed,
    });
    expect(checkBlockKitLimits(withSandboxMarker(round, true))).toEqual([]);
    expect(round.text).toContain('no answer 300');
    const asks = Array.from({ length: 30 }, (_, i) => ({
      askId: `ra${String(i).padStart(16, '0')}`,
      poolId: '2003',
      courseTitle: 'Optimizing DAX',
      progress: 10,
      standing: 'stalled' as const,
      since: '2026-09-01',
      watched: false,
      deadlineAt: '2026-12-02T10:00:00.000Z',
    }));
    expect(checkBlockKitLimits(withSandboxMarker(buildReclaimReminderMessage(asks), true))).toEqual([]);
  });

  it('the Start value carries the pool and the policy, and nothing altered gets through', () => {
    expect(decodeReclaimStart(encodeReclaimStart('2003', 'release'))).toEqual({ poolId: '2003', policy: 'release' });
    expect(decodeReclaimStart(encodeReclaimStart(undefined, 'list'))).toEqual({ policy: 'list' });
    expect(decodeReclaimStart('{"p":null,"policy":"revoke-all"}')).toBeUndefined();
    expect(decodeReclaimStart('not json')).toBeUndefined();
  });
});
