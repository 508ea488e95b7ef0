/**
 * Which work is running, so that a stop can let it finish (docs/shutdown.md): every Slack request
 * being handled (a command, click, submission or event, including the reads it makes), inside them
 * every license change sent to the licensing service, and the bulk jobs running in the background. Once `draining` is set, new requests are
 * turned away by the app and `idle()` tells when the work in flight is over.
 */

/** request: a Slack request being handled; write: a license change (assign, recycle, extend, revoke);
 *  bulk: a bulk job running in the background (a stop lets it finish its current line). */
export type WorkKind = 'request' | 'write' | 'bulk';

export interface RunningWork {
  kind: WorkKind;
  /** What it is, for the log, e.g. `view_submission license_extend_form` or `extend license 4002`. */
  label: string;
  startedAt: number;
}

export interface WorkTracker {
  /** True from startDraining() on: take no new work. */
  readonly draining: boolean;
  startDraining(): void;
  /** Runs `fn` as tracked work; it stays counted until `fn` settles. */
  run<T>(kind: WorkKind, label: string, fn: () => Promise<T>): Promise<T>;
  /** The work in flight now, oldest first. */
  running(): RunningWork[];
  /** Resolves true once nothing of `kinds` (default: any) runs, or false after `timeoutMs`. */
  idle(timeoutMs: number, kinds?: WorkKind[]): Promise<boolean>;
}

export function createWorkTracker(now: () => number = Date.now): WorkTracker {
  const works = new Set<RunningWork>();
  const waiters = new Set<() => void>();
  let draining = false;

  const busy = (kinds: WorkKind[] | undefined) => [...works].some((w) => kinds === undefined || kinds.includes(w.kind));

  return {
    get draining() {
      return draining;
    },
    startDraining() {
      draining = true;
    },
    async run(kind, label, fn) {
      const work: RunningWork = { kind, label, startedAt: now() };
      works.add(work);
      try {
        return await fn();
      } finally {
        works.delete(work);
        for (const wake of [...waiters]) wake();
      }
    },
    running: () => [...works],
    idle(timeoutMs, kinds) {
      if (!busy(kinds)) return Promise.resolve(true);
      return new Promise<boolean>((resolve) => {
        const done = (result: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(result);
        };
        const check = () => {
          if (!busy(kinds)) done(true);
        };
        const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
        waiters.add(check);
      });
    },
  };
}

/** `fn` as tracked work when there is a tracker (the app always has one; some tests build none). */
export function tracked<T>(
  work: WorkTracker | undefined,
  kind: WorkKind,
  label: string,
  fn: () => Promise<T>,
): Promise<T> {
  return work ? work.run(kind, label, fn) : fn();
}
