/**
 * Requests are business data: kept in DATA_DIR/requests.json, each write atomic (temporary file,
 * fsync, rename; services/state-store.ts) and serialised, so a crash leaves the old or the new file
 * and two decisions on one request cannot both win. Behind the RequestStore interface of
 * domain/requests.ts, so that a shared store (Redis) can stand in for several replicas.
 */
import { join } from 'node:path';
import {
  applyDecision,
  type CourseRequest,
  type DecideResult,
  type Decision,
  prunable,
  type RequestStore,
} from '../../domain/requests.js';
import type { Logger } from '../../licensing/types.js';
import { createJsonFile } from '../state-store.js';

interface RequestsFile {
  version: 1;
  requests: Record<string, CourseRequest>;
}

function parseFile(raw: unknown): RequestsFile | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Partial<RequestsFile>;
  if (r.version !== 1 || typeof r.requests !== 'object' || r.requests === null) return undefined;
  return r as RequestsFile;
}

export function createFileRequestStore(dataDir: string, logger: Logger): RequestStore {
  const file = createJsonFile<RequestsFile>({
    path: join(dataDir, 'requests.json'),
    empty: () => ({ version: 1, requests: {} }),
    parse: parseFile,
    logger,
  });
  const all = async () => Object.values((await file.read()).requests);
  return {
    async get(id) {
      return (await file.read()).requests[id];
    },
    async put(request) {
      await file.update((v) => {
        v.requests[request.id] = request;
      });
    },
    async update(id, change) {
      let found: CourseRequest | undefined;
      await file.update((v) => {
        const r = v.requests[id];
        if (!r) return;
        change(r);
        found = r;
      });
      return found ? structuredClone(found) : undefined;
    },
    async byRequester(userId) {
      return (await all()).filter((r) => r.requester === userId).sort(byCreated);
    },
    async byStatus(status) {
      return (await all()).filter((r) => r.status === status).sort(byCreated);
    },
    async prune(now) {
      // Nothing is written when nothing is due: the check runs every 5 minutes.
      if (prunable(await all(), now).length === 0) return 0;
      let dropped = 0;
      await file.update((v) => {
        for (const id of prunable(Object.values(v.requests), now)) {
          delete v.requests[id];
          dropped++;
        }
      });
      return dropped;
    },
    async decide(id: string, decision: Decision): Promise<DecideResult> {
      let result: DecideResult = { ok: false, reason: 'not-found' };
      // update() runs its change inside the one write chain: read, compare and set happen together.
      await file.update((v) => {
        const r = v.requests[id];
        if (!r) return;
        if (r.status !== 'pending') {
          result = { ok: false, reason: 'already', request: structuredClone(r) };
          return;
        }
        const decided = applyDecision(r, decision);
        v.requests[id] = decided;
        result = { ok: true, request: structuredClone(decided) };
      });
      return result;
    },
  };
}

const byCreated = (a: CourseRequest, b: CourseRequest) => a.createdAt.localeCompare(b.createdAt);
