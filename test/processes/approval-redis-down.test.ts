/**
 * Redis lost in the middle of an approval, end to end: the real process (src/main.ts, HTTP mode) with
 * its records in PostgreSQL (DATABASE_URL) and a private redis-server (REDIS_URL) for the licensing rate
 * budget, the repeat guard and caches. A member asks for a course, a license admin clicks Approve, the
 * licensing service applies the assign and its answer is held; Redis is stopped; the answer is let
 * through. The license was assigned, so that is what everyone is told: the approver (not "something
 * went wrong"), the requester (the license DM, once) and the request card (assigned, no Approve).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { freshPostgresDatabase, postgresSkipReason } from '../support/postgres.js';
import { freePort, privateRedisSkipReason, startPrivateRedis, type TestRedis } from '../support/redis.js';
import { until } from '../support/until.js';

const { channel: CHANNEL, pool: POOL, requester: REQUESTER } = NORA_ASKS;
const ADMIN = TEST_USERS.admin;

let desk: KilledDesk | undefined;
let redis: TestRedis | undefined;

beforeEach(async () => {
  if (privateRedisSkipReason !== undefined || postgresSkipReason() !== undefined) return;
  redis = await startPrivateRedis(await freePort());
  desk = await startKilledDesk({
    env: { REQUESTS_CHANNEL: CHANNEL, DATABASE_URL: await freshPostgresDatabase(), REDIS_URL: redis.url },
  });
});

afterEach(async () => {
  await desk?.close();
  await redis?.close();
  desk = undefined;
  redis = undefined;
});

describe.skipIf(privateRedisSkipReason !== undefined || postgresSkipReason() !== undefined)(
  'Redis stopped while an approval waits for the licensing answer',
  () => {
    it('the license assigned is what the approver, the requester (once) and the card are told', async () => {
      if (!desk || !redis) throw new Error('no desk');
      const d = desk;
      const nora = watchRequest(() => d, NORA_ASKS);

      await d.start();
      const requestId = await nora.askWithForm('VREDISREQ1', 20_000);
      await nora.untilReceived(20_000);

      const hold = d.holdAssign(POOL, 'after');
      const clicked = d.click(RequestActionId.approve, requestId, ADMIN, { channel: CHANNEL, responseId: 'approve' });
      await until('the assign to be applied and its answer held', () => hold.request !== undefined, 20_000);
      expect(hold.request?.status).toBeLessThan(300);
      expect(nora.licenses()).toHaveLength(1);

      // Redis goes away while the answer is held; then the answer arrives.
      await redis.close();
      await until(
        'the app to notice Redis is gone',
        () => d.main?.output().stdout.includes('Redis is unreachable') === true,
        20_000,
      );
      hold.release();
      expect((await clicked).status).toBe(200);

      const told = await d.slack.waitForResponse('approve', (p) => !allText(p.body).includes('Working on it'), 30_000);
      const toApprover = allText(told.body);
      const held = nora.licenses();
      expect(held).toHaveLength(1);
      expect(toApprover).not.toMatch(/went wrong/i);
      expect(toApprover).toContain(`license \`${held[0]?.id}\` assigned to <@${REQUESTER}>`);

      await until('the requester to be told the license is theirs', () => nora.yours().length >= 1, 30_000, 200);
      await until(
        'the card to show the license assigned',
        () => /license `\d+` assigned/.test(nora.card().text) && !nora.card().actions.includes(RequestActionId.approve),
        30_000,
        200,
      );
      expect(allText(nora.yours()[0]?.args.blocks)).toContain(`license \`${held[0]?.id}\``);
      expect(nora.card().text).toContain(`license \`${held[0]?.id}\``);
      expect(nora.card().text).toContain(`Approved by <@${ADMIN}>`);
      expect(nora.yours()).toHaveLength(1);
      expect(d.repeatedDms(REQUESTER)).toEqual([]);
      expect(nora.assignPosts()).toHaveLength(1);
    }, 120_000);
  },
);
