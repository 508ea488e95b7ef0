/**
 * What the change flows remember between a modal opening and its submission, per process: the
 * once-guard (services/once.ts) and the data a form was built from, keyed by view id, so the
 * submission's pre-checks cost no licensing request and fit in Slack's 3 seconds. A submission whose
 * snapshot is missing (another process, a restart, a forged view id) skips those pre-checks: the
 * licensing API applies the same rules and its refusal is shown instead.
 */

import type { ChangeContext } from '../../changes/services/change-context.js';
import type { RecycleChoice } from '../../changes/services/recycle.js';
import type { License, Pool } from '../domain/types.js';
import type { AuditLog } from '../services/audit.js';
import { createOnceGuard, type OnceGuard } from '../services/once.js';
import type { WorkTracker } from '../services/work-tracker.js';
import type { AppDeps } from './deps.js';

export type Snapshot =
  | { kind: 'assign'; pools: Pool[]; allowedDomains: string[] }
  | { kind: 'extend'; license: License; pool: Pool }
  /** The recycle confirmation: what it was built from, so a pick in it costs only the progress read. */
  | { kind: 'recycle'; choice: RecycleChoice; newStudent: { email: string; name?: string } };

export interface Snapshots {
  set(viewId: string, snapshot: Snapshot): void;
  get(viewId: string): Snapshot | undefined;
}

/**
 * The per-app state of the Slack side, built once by the composition root (src/app/compose.ts) and handed to every register* function:
 * the once-guard, the form snapshots, the audit trail and the work tracker a stop waits for.
 */
export interface AppState {
  once: OnceGuard;
  snapshots: Snapshots;
  audit: AuditLog;
  work: WorkTracker;
}

/** What a listener receives: the dependencies from the composition root and the app's state. */
export interface Surface {
  deps: AppDeps;
  state: AppState;
}

const SNAPSHOT_TTL_MS = 60 * 60_000;
const SNAPSHOT_MAX = 500;

function createSnapshots(now: () => number): Snapshots {
  const map = new Map<string, { at: number; snapshot: Snapshot }>();
  return {
    set(viewId, snapshot) {
      map.delete(viewId);
      map.set(viewId, { at: now(), snapshot });
      // Oldest first in insertion order: drop beyond the cap.
      for (const key of map.keys()) {
        if (map.size <= SNAPSHOT_MAX) break;
        map.delete(key);
      }
    },
    get(viewId) {
      const hit = map.get(viewId);
      if (!hit || now() - hit.at > SNAPSHOT_TTL_MS) return undefined;
      return hit.snapshot;
    },
  };
}

export function createAppState(parts: {
  audit: AuditLog;
  work: WorkTracker;
  /** With REDIS_URL: a double click split across two replicas still changes things once. */
  once?: OnceGuard;
  now?: () => number;
}): AppState {
  return {
    once: parts.once ?? createOnceGuard(),
    snapshots: createSnapshots(parts.now ?? Date.now),
    audit: parts.audit,
    work: parts.work,
  };
}

/** The use cases' context (services/change-context.ts) for a listener. */
export function changeContext({ deps, state }: Surface): ChangeContext {
  return { ...jobChangeContext(deps, state.audit), work: state.work };
}

/** The use cases' context for License Desk's own background work (a job): the app's deps and audit trail. */
export function jobChangeContext(deps: AppDeps, audit: AuditLog, writes = deps.writes): ChangeContext {
  return { licensing: deps.licensing, audit, now: deps.now, work: deps.work, seats: deps.waitlist, writes };
}
