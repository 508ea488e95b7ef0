/**
 * A stop tells the people of the work it drained (docs/shutdown.md): the real process (src/main.ts in a
 * child process) gets SIGTERM while an approval's licensing POST is held at the licensing double; the
 * write then finishes within the drain, and the requester's "it is yours" DM reaches Slack before the
 * process exits, once. The approver reads "They were told" only because they were.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RequestActionId } from '../../src/kernel/blocks/ids.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { type KilledDesk, NORA_ASKS, startKilledDesk, watchRequest } from '../support/kill-restart.js';
import { logLinesOf } from '../support/run-main.js';
import { until } from '../support/until.js';

const { channel: CHANNEL, pool: POOL } = NORA_ASKS;

let desk: KilledDesk;

beforeEach(async () => {
  desk = await startKilledDesk({ env: { REQUESTS_CHANNEL: CHANNEL, SHUTDOWN_DRAIN_SECONDS: '20' } });
});

afterEach(async () => {
  await desk?.close();
});

const nora = watchRequest(() => desk, NORA_ASKS);

describe('SIGTERM during an approval', () => {
  it('the write drains, and the requester’s DM is sent before the process exits, once', async () => {
    const main = await desk.start();
    const requestId = await nora.askWithForm('VTERMREQ1');
    await nora.untilReceived();
    // The licensing double is slow: the assign POST waits at the proxy.
    const hold = desk.holdAssign(POOL, 'before');
    const clicked = await desk.click(RequestActionId.approve, requestId, TEST_USERS.admin, {
      channel: CHANNEL,
      responseId: 'approve-term',
    });
    expect(clicked.status).toBe(200);
    await until('the assign POST to be held', () => hold.request !== undefined, 15_000);

    main.child.kill('SIGTERM');
    await until('the stop to begin', () => logLinesOf(main).some((l) => l.message === 'stopping'), 10_000);
    expect(nora.yours()).toEqual([]);
    // The licensing service answers now, within the drain.
    hold.release();
    const code = await main.exited;
    expect(code).toBe(0);

    // Everything below happened before the exit: nothing runs any more.
    expect(nora.licenses()).toHaveLength(1);
    expect(nora.yours()).toHaveLength(1);
    const answers = desk.slack.responses.filter((p) => p.id === 'approve-term');
    const text = answers.map((p) => JSON.stringify(p.body)).join('\n');
    expect(text).toMatch(/Approved: license `\d+` assigned/);
    expect(text).toContain('They were told.');
    const pending = logLinesOf(main).filter((l) => l.message === 'stopped');
    expect(pending).toHaveLength(1);
  }, 60_000);
});
