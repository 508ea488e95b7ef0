/**
 * The automatic return's messages: the holder's DM says the course, that it was completed and when,
 * and how to ask again; the alert channel's post carries counts by pool only, within Slack's limits
 * however many pools there are, and escapes what came from the API.
 */
import { describe, expect, it } from 'vitest';
import { RequestActionId } from '../../../src/kernel/blocks/ids.js';
import { checkBlockKitLimits } from '../../../src/kernel/blocks/limits.js';
import { buildSeatReturnedMessage, buildSeatsReturnedPost } from '../../../src/progress/blocks/auto-return.js';
import type { AutoReturnNotice } from '../../../src/progress/domain/auto-return.js';
import { allText, buttons } from '../../support/fixtures.js';

describe('the automatic return of finished seats in Block Kit', () => {
  it('tells the holder the course, the completion day, and offers a course request for the pool', () => {
    const returned: AutoReturnNotice = {
      kind: 'progress-returned',
      email: 'ada@contoso.com',
      licenseId: '4001',
      poolId: '2003',
      completedOn: '2026-03-02',
    };
    const m = buildSeatReturnedMessage({ ...returned, courseTitle: 'Optimizing <DAX>' });
    expect(checkBlockKitLimits(m)).toEqual([]);
    expect(m.text).toContain('Optimizing');
    const all = allText(m.blocks);
    expect(all).toContain('*Optimizing &lt;DAX&gt;*');
    expect(all).toContain('you completed it on Mar 2, 2026');
    expect(all).toContain('course request');
    expect(all).not.toContain('ada@contoso.com');
    expect(buttons(m).map((b) => [b.action_id, b.value])).toEqual([[RequestActionId.openFor, '2003']]);
    // Without a course title (the pool was gone), the pool names it.
    const bare = buildSeatReturnedMessage(returned);
    expect(allText(bare.blocks)).toContain('the course of pool `2003`');
  });

  it('posts counts by pool to the channel, nothing about a student, within the limits for many pools', () => {
    const post = buildSeatsReturnedPost({
      kind: 'progress-returns',
      channel: 'C0ALERTS01',
      pools: [
        { poolId: '2003', courseTitle: 'Power BI: DAX', count: 2 },
        { poolId: '2005', count: 1 },
      ],
      failed: 1,
    });
    expect(allText(post.blocks)).toContain(
      'Returned 3 seats of finished courses: *Power BI: DAX* (pool `2003`): 2, pool `2005`: 1.',
    );
    expect(allText(post.blocks)).toContain('1 return did not go through');
    expect(allText(post.blocks)).toContain('/licenses history');
    expect(post.text).toMatch(/^Returned 3 seats of finished courses: Power BI: DAX \(pool 2003\): 2, pool 2005: 1\./);
    const many = buildSeatsReturnedPost({
      kind: 'progress-returns',
      channel: 'C0ALERTS01',
      pools: Array.from({ length: 500 }, (_, i) => ({ poolId: `${9000 + i}`, count: 2 })),
      failed: 0,
    });
    expect(checkBlockKitLimits(many)).toEqual([]);
    expect(allText(many.blocks)).toContain('Returned 1000 seats');
    expect(allText(many.blocks)).toContain('and 460 more pools');
  });
});
