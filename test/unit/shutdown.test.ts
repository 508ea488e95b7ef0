/** The stop's order (src/kernel/config/shutdown.ts): by name, after the work in flight, each close bounded. */
import { describe, expect, it } from 'vitest';
import { createStopper, type Part } from '../../src/kernel/config/shutdown.js';
import type { Logger } from '../../src/kernel/licensing/types.js';
import { createWorkTracker } from '../../src/kernel/services/work-tracker.js';

function recordingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    lines.push({ level, message, ...(fields ? { fields } : {}) });
  const logger: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createStopper', () => {
  it('closes by name in its own order, whatever the order of registration, and only after the work in flight', async () => {
    const { logger, lines } = recordingLogger();
    const work = createWorkTracker();
    const stopper = createStopper({ logger, drainMs: 20_000 });
    const closed: string[] = [];
    const budgets: Record<string, number> = {};
    const parts: Part[] = ['local Slack', 'sandbox', 'licensing client', 'app', 'desk'];
    for (const part of parts) {
      stopper.add(part, async (budgetMs) => {
        closed.push(part);
        budgets[part] = budgetMs;
      });
    }
    stopper.watch(work);
    let finish: () => void = () => undefined;
    const change = work.run('write', 'extend license 4002', () => new Promise<void>((resolve) => (finish = resolve)));

    const stopped = stopper.stop('SIGTERM');
    await turn();
    expect(work.draining).toBe(true);
    // The desk stops taking new work at once; nothing else closes while the change runs.
    expect(closed).toEqual(['desk']);
    expect(budgets.desk).toBe(20_000);
    expect(lines.find((l) => l.message === 'stopping')?.fields?.inFlight).toEqual([
      expect.stringMatching(/^change: extend license 4002 \(\d+ s\)$/),
    ]);

    finish();
    await change;
    await stopped;
    expect(closed).toEqual(['desk', 'app', 'licensing client', 'sandbox', 'local Slack']);
    expect(lines.some((l) => l.message.includes('cutting it off'))).toBe(false);
    expect(lines.at(-1)).toMatchObject({ message: 'stopped', fields: { drained: true } });
  });

  it('a close that never ends is given up on, and the stop still finishes', async () => {
    const { logger, lines } = recordingLogger();
    const stopper = createStopper({ logger, drainMs: 0, closeMs: 20, tellMs: 20 });
    const closed: string[] = [];
    stopper.add('sandbox', () => new Promise<void>(() => undefined));
    stopper.add('local Slack', async () => {
      closed.push('local Slack');
    });
    await stopper.stop('SIGTERM');
    expect(closed).toEqual(['local Slack']);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'warn', message: 'stopping: the sandbox did not close within 20 ms; going on' }),
    );
  });

  it('work still running at the bound is reported, then cut off', async () => {
    const { logger, lines } = recordingLogger();
    const work = createWorkTracker();
    const stopper = createStopper({ logger, drainMs: 10, tellMs: 1_000 });
    stopper.watch(work);
    let cutOff: () => void = () => undefined;
    const change = work.run('write', 'revoke license 4001', () => new Promise<void>((resolve) => (cutOff = resolve)));
    // Closing the licensing client is what ends a request in flight; the flow then tells and audits.
    stopper.add('licensing client', async () => cutOff());
    await stopper.stop('SIGTERM');
    await change;
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        message: 'stopping: work still in flight after SHUTDOWN_DRAIN_SECONDS; cutting it off',
        fields: expect.objectContaining({ changes: 1 }),
      }),
    );
    expect(lines.at(-1)).toMatchObject({ message: 'stopped', fields: { drained: false } });
  });
});
