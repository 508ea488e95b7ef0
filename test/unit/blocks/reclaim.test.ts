/** The reclaim messages stay within Slack's limits at any size, and say what a person needs to read. */
import { describe, expect, it } from 'vitest';
import { withSandboxMarker } from '../../../src/kernel/blocks/common.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import {
  buildReclaimAnswerMessage,
  buildReclaimPreviewMessage,
  buildReclaimReminderMessage,
  buildReclaimRoundMessage,
  buildReclaimStartedMessage,
  decodeReclaimStart,
  encodeReclaimStart,
} from '../../../src/reclaim/blocks/reclaim.js';
import type { ReclaimOpenRound } from '../../../src/reclaim/domain/reclaim.js';
import { DEFAULT_RECLAIM_SETTINGS, type ReclaimCandidate } from '../../../src/reclaim/domain/reclaim.js';

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

  it('a second Start names the open round and its deadline; a late or superseded answer says nothing changed', () => {
    const open: ReclaimOpenRound = {
      poolId: '2003',
      roundId: 'rr0000000000000001',
      admin: 'U0MGR00001',
      startedAt: '2026-11-25T10:00:00.000Z',
      deadlineAt: '2026-12-02T10:00:00.000Z',
    };
    const again = buildReclaimStartedMessage({ kind: 'already-open', rounds: [open] });
    expect(again.text).toBe(
      'Nothing was started: a reclaim round is already open for pool `2003`, deadline Dec 2, 2026. Its holders were asked then; one round per pool is open at a time.',
    );
    expect(checkBlockKitLimits(again)).toEqual([]);
    // The preview of a pool with a round open: who started it and its deadline, and no Start button.
    const preview = buildReclaimPreviewMessage({
      kind: 'preview',
      poolId: '2003',
      pools: [
        {
          poolId: '2003',
          courseTitle: 'Optimizing DAX',
          waiting: 1,
          ask: [],
          notInSlack: [],
          keptRecently: 0,
          alreadyAsked: 0,
          openRound: open,
        },
      ],
      untransferable: 0,
      settings: DEFAULT_RECLAIM_SETTINGS,
    });
    expect(JSON.stringify(preview.blocks)).toContain(
      'a reclaim round is already open here, started by <@U0MGR00001> <!date^1795600800^{date_short} at {time}|Nov 25, 2026 at 10:00 UTC>, deadline <!date^1796205600^{date_short} at {time}|Dec 2, 2026 at 10:00 UTC>: nobody else is asked here before it closes.',
    );
    expect(JSON.stringify(preview.blocks)).not.toContain('"type":"button"');
    expect(checkBlockKitLimits(preview)).toEqual([]);
    const ask = {
      askId: 'ra0000000000000001',
      poolId: '2003',
      courseTitle: 'Optimizing DAX',
      progress: 40,
      standing: 'stalled' as const,
      since: '2026-09-01T10:00:00.000Z',
      watched: true,
      deadlineAt: '2026-12-02T10:00:00.000Z',
    };
    expect(buildReclaimAnswerMessage({ kind: 'too-late', ask }).text).toBe(
      'This question about Optimizing DAX is closed: its reclaim round ended at its deadline, Dec 2, 2026. Your answer was not recorded and nothing changed.',
    );
    expect(buildReclaimAnswerMessage({ kind: 'superseded', ask, by: 'released' }).text).toBe(
      'This question about Optimizing DAX is closed: your seat was already released in another reclaim round. Your answer was not recorded and nothing changed.',
    );
  });
});
