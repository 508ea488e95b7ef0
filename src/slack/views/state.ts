/**
 * What the change flows remember between a modal opening and its submission, per process: the
 * once-guard (services/once.ts) and the data a form was built from, keyed by view id, so the
 * submission's pre-checks cost no licensing request and fit in Slack's 3 seconds. A submission whose
 * snapshot is missing (another process, a restart, a forged view id) skips those pre-checks: the
 * licensing API applies the same rules and its refusal is shown instead.
 */
import type { License, Pool } from '../../domain/types.js';
import { type AuditLog, createAuditLog } from '../../services/audit.js';
import { createOnceGuard, createSharedOnceGuard, type OnceGuard } from '../../services/once.js';
import type { AppDeps } from '../deps.js';

export type Snapshot =
  | { kind: 'assign'; pools: Pool[]; allowedDomains: string[] }
  | { kind: 'extend'; license: License; pool: Pool };

export interface Snapshots {
  set(viewId: string, snapshot: Snapshot): void;
  get(viewId: string): Snapshot | undefined;
}

export interface ChangeState {
  once: OnceGuard;
  snapshots: Snapshots;
  audit: AuditLog;
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

const states = new WeakMap<AppDeps, ChangeState>();

/** One state per app: createApp hands the same deps object to every registration. */
export function changeState(deps: AppDeps): ChangeState {
  let state = states.get(deps);
  if (!state) {
    state = {
      // With REDIS_URL a double click split across two replicas still changes things once.
      once: deps.shared?.shared ? createSharedOnceGuard(deps.shared, deps.logger) : createOnceGuard(),
      snapshots: createSnapshots(Date.now),
      // Without an audit log from the composition root, the trail still reaches the log.
      audit: deps.audit ?? createAuditLog({ logger: deps.logger }),
    };
    states.set(deps, state);
  }
  return state;
}
