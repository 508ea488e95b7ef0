/**
 * The audit post queue on its own, on test-controlled timers: the bound and what is said past it,
 * a refusal burst cut at the fold maximum, 429s that never end, a stop with a post hanging, and
 * timers that never keep the process alive.
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/kernel/services/audit.js';
import {
  createAuditPostQueue,
  PostRateLimitedError,
  type QueuedPost,
  realTimers,
} from '../../../src/kernel/services/audit-queue.js';
import { manualTimers } from '../../support/manual-timers.js';

function setup(post: (item: QueuedPost) => Promise<void>, options = {}) {
  const clock = manualTimers();
  const logs: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const log = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void logs.push({ level, message, ...(fields ? { fields } : {}) });
  const logger = { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
  const queue = createAuditPostQueue({
    post,
    logger,
    channel: 'C0AUDIT',
    options: { timers: clock.timers, ...options },
  });
  return { clock, logs, queue };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));
let n = 0;
const entry = (over: Partial<AuditEntry> = {}): AuditEntry => ({
  at: new Date(Date.UTC(2026, 10, 21, 10, 0, n++)).toISOString(),
  actor: 'U0MGR00001',
  action: 'revoke',
  outcome: 'done',
  licenseId: String(4000 + n),
  ...over,
});

describe('the audit post queue', () => {
  it('past the bound, drops new posts with one log line, then counts them in the log and in the channel', async () => {
    const sent: QueuedPost[] = [];
    const { queue, logs } = setup(async (item) => void sent.push(item), { paceMs: 0, maxWaiting: 3 });
    for (let i = 0; i < 10; i += 1) queue.add(entry());
    expect(queue.waiting).toBe(3);
    expect(logs.filter((l) => l.message.includes('new ones are dropped'))).toHaveLength(1);
    for (let i = 0; i < 10; i += 1) await settle();
    // Once the queue had room again: the three kept, then one post counting the seven dropped.
    expect(sent.map((s) => s.kind)).toEqual(['entry', 'entry', 'entry', 'dropped']);
    expect(sent[3]).toMatchObject({ kind: 'dropped', count: 7 });
    expect(await queue.flush(1000)).toEqual({ posted: 0, unsent: 0 });
    expect(logs.find((l) => l.message.includes('were dropped'))?.fields).toMatchObject({ dropped: 7 });
  });

  it('a person refused every 4 s is posted once a minute at most, not once per quiet gap', async () => {
    const sent: QueuedPost[] = [];
    const { queue, clock } = setup(async (item) => void sent.push(item), { foldQuietMs: 5000, foldMaxMs: 60_000 });
    for (let i = 0; i < 16; i += 1) {
      queue.add(entry({ outcome: 'refused', actor: 'U0VIEW0001' }));
      clock.advance(4000);
      await settle();
    }
    // 15 refusals fell within the first minute; the 16th opened the next burst.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'burst', burst: { count: 15 }, windowMs: 60_000 });
    await queue.flush(1000);
    expect(sent[1]).toMatchObject({ kind: 'entry' });
  });

  it('a post Slack keeps answering with 429 is given up after the last try, and logged', async () => {
    let tries = 0;
    const { queue, clock, logs } = setup(
      async () => {
        tries += 1;
        throw new PostRateLimitedError(2000);
      },
      { maxAttempts: 3 },
    );
    queue.add(entry());
    for (let i = 0; i < 5; i += 1) {
      await settle();
      clock.advance(2000);
    }
    expect(tries).toBe(3);
    expect(queue.waiting).toBe(0);
    expect(logs.find((l) => l.message === 'could not post to the audit channel')?.fields).toMatchObject({
      entry: { action: 'revoke', outcome: 'done' },
    });
  });

  it('close() with a post hanging: resolves at its timeout, logs what is unsent, posts nothing later', async () => {
    const { queue, clock, logs } = setup(() => new Promise<void>(() => undefined));
    queue.add(entry());
    queue.add(entry({ action: 'extend' }));
    const closing = queue.close(3000);
    expect(queue.close(3000)).toBe(closing);
    clock.advance(3000);
    expect(await closing).toEqual({ posted: 0, unsent: 2 });
    const unsent = logs.find((l) => l.message.includes('not sent'));
    expect(unsent?.fields?.unsent).toHaveLength(2);
    queue.add(entry());
    expect(logs.some((l) => l.message.includes('this entry is not posted'))).toBe(true);
    expect(queue.waiting).toBe(0);
  });

  it("real timers never keep the process alive, except a flush's own deadline", () => {
    const idle = realTimers.setTimeout(() => undefined, 60_000) as NodeJS.Timeout;
    const deadline = realTimers.setTimeout(() => undefined, 60_000, true) as NodeJS.Timeout;
    expect(idle.hasRef()).toBe(false);
    expect(deadline.hasRef()).toBe(true);
    realTimers.clearTimeout(idle);
    realTimers.clearTimeout(deadline);
  });
});
