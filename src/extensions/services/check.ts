/**
 * The extension requests' periodic check (a job of the one runner) and their settle: an undecided
 * request reminds its approvers once after REQUEST_REMIND_HOURS and expires after
 * REQUEST_EXPIRY_DAYS (the learner told); an approval whose write's answer never came (a kill, a lost
 * answer) is read back, never resent: the license shows the day asked for, or it does not.
 */
import { dayOf } from '../../kernel/domain/end-date.js';
import { isLicensingError } from '../../kernel/licensing/errors.js';
import { type JobRunner, startedJob } from '../../kernel/services/jobs/runner.js';
import { SETTLED_DETAIL } from '../../kernel/services/writes/settle.js';
import { type ExtensionRequest, extensionDue } from '../domain/extensions.js';
import { finishExtend } from './decide.js';
import { DESK, type ExtensionKernel } from './kernel.js';

const NOT_EXTENDED =
  'License Desk stopped (or lost the answer) before the end date was changed, and the license shows its old end';

/** Reads the license back for an approval whose answer never came, and records what it shows. */
export async function settleExtension(k: ExtensionKernel, intentId: string, extensionId: string | null): Promise<void> {
  const r = extensionId ? await k.opts.store.get(extensionId) : undefined;
  if (r?.status !== 'extending' || r.extending?.intentId !== intentId) {
    // Nothing waits for it any more (recorded already): the intent only needs closing.
    await k.txn((trx) => k.opts.intents.close(trx, intentId, { kind: 'nothing-waits' }));
    return;
  }
  const license = await k.opts.licensing.licenses
    .get(r.licenseId, { priority: 'background' })
    .catch((error: unknown) => {
      // A license the licensing service no longer knows was not extended; any other failure: next round.
      if (isLicensingError(error) && error.kind === 'not-found') return undefined;
      throw error;
    });
  const extended = license?.active === true && dayOf(license.end) === r.endDate;
  const by = r.extending.by;
  const done = await finishExtend(k, r, extended ? { extended } : { extended, why: NOT_EXTENDED }, { approver: by });
  if (!done) return;
  await k.audit(
    by,
    'extend',
    extended ? 'done' : 'failed',
    done,
    `${SETTLED_DETAIL}: ${extended ? 'the license has the end date asked for' : 'the end date was not changed'}`,
  );
}

/** Requests whose write has been running this long without an outcome are read back by the check. */
const STUCK_MS = 2 * 60_000;

export function createExtensionCheck(k: ExtensionKernel) {
  async function expire(r: ExtensionRequest): Promise<boolean> {
    const done = await k.txn(async (trx, s) => {
      const result = await s.swap(r.id, ['pending'], (x) => ({ ...x, status: 'expired', decidedAt: k.stamp() }));
      if (result.changed) await k.changed(trx, result.request, true);
      return result.changed ? result.request : undefined;
    });
    if (done) await k.audit(DESK, 'expired', 'done', done, 'more time: nobody decided in time');
    return done !== undefined;
  }

  /** Once, even with several replicas: only the one that sets remindedAt reminds. */
  function remind(r: ExtensionRequest): Promise<boolean> {
    return k.txn(async (trx, s) => {
      let mine = false;
      const result = await s.swap(r.id, ['pending'], (x) => {
        if (x.remindedAt !== undefined) return x;
        mine = true;
        return { ...x, remindedAt: k.stamp() };
      });
      if (!result.changed || !mine) return false;
      await k.tell(trx, { kind: 'extension-reminder', extensionId: r.id }, `extension:${r.id}:reminder`);
      return true;
    });
  }

  async function settleStuck(): Promise<number> {
    let settled = 0;
    const cutoff = k.opts.now().getTime() - STUCK_MS;
    for (const r of await k.opts.store.byStatus('extending')) {
      if (!r.extending || Date.parse(r.extending.at) > cutoff) continue;
      try {
        await settleExtension(k, r.extending.intentId, r.id);
        settled++;
      } catch (error) {
        k.opts.logger.warn('could not check an extension request being carried out', { error: String(error) });
      }
    }
    return settled;
  }

  return async function check(): Promise<{ reminded: number; expired: number; settled: number }> {
    const now = k.opts.now();
    let reminded = 0;
    let expired = 0;
    for (const r of await k.opts.store.byStatus('pending')) {
      const due = extensionDue(r, k.opts.timers, now);
      if (due === 'expire' && (await expire(r))) expired++;
      else if (due === 'remind' && (await remind(r))) reminded++;
    }
    return { reminded, expired, settled: await settleStuck() };
  };
}

/** The check as a job of the runner, every `everyMs`; `tick()` runs it now (tests). */
export function checkJob(run: () => Promise<unknown>, k: ExtensionKernel, everyMs: number, jobs?: JobRunner) {
  let running: Promise<unknown> | undefined;
  const tick = async () => {
    running ??= run().finally(() => {
      running = undefined;
    });
    return running;
  };
  const job = startedJob(jobs, k.opts.logger, {
    name: 'extension requests: reminders, expiry and read-backs',
    everyMs,
    run: () =>
      tick().catch((error: unknown) => k.opts.logger.warn('extension request check failed', { error: String(error) })),
  });
  return {
    tick,
    start: () => job.start(),
    async stop() {
      await job.stop(0);
      await running?.catch(() => undefined);
    },
  };
}
