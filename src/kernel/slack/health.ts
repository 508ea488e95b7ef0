/**
 * GET /healthz: what a load balancer or an operator needs to know, as JSON. The database
 * (`records.health()`) and, with REDIS_URL, Redis (a PING) are each asked with a short timeout;
 * `status` is 200 while the database answers and 503 when it does not (this replica cannot keep a
 * record). Redis down leaves it 200: the app still serves, with what docs/deployment.md says a
 * lost Redis costs. The answer names no host, user or password: why a part is down goes to the log,
 * once per change of state.
 */
import type { Logger } from '../licensing/types.js';

export type PartState = 'up' | 'down';

export interface HealthParts {
  /** The records: undefined when a trivial query answers, else one sentence. */
  database?: { dialect: string; health(): Promise<string | undefined> };
  /** REDIS_URL only: undefined when PING answers, else one sentence. */
  redis?: { health(timeoutMs?: number): Promise<string | undefined> };
}

export interface HealthReport {
  status: 200 | 503;
  body: {
    ok: boolean;
    sandbox: boolean;
    database?: { state: PartState; dialect: string };
    redis?: { state: PartState };
  };
}

/** How long each part may take to answer. */
export const HEALTH_TIMEOUT_MS = 1_500;

async function ask(check: () => Promise<string | undefined>, timeoutMs: number): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      check(),
      new Promise<string>((resolve) => {
        timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
      }),
    ]);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    clearTimeout(timer);
  }
}

export function createHealthCheck(parts: HealthParts, logger: Logger, timeoutMs = HEALTH_TIMEOUT_MS) {
  const last: Record<string, PartState> = {};
  const note = (part: string, problem: string | undefined): PartState => {
    const state: PartState = problem === undefined ? 'up' : 'down';
    if (last[part] !== state) {
      if (problem !== undefined) logger.warn(`health: ${part} is down`, { problem });
      else if (last[part] === 'down') logger.info(`health: ${part} answers again`);
      last[part] = state;
    }
    return state;
  };
  return async (sandbox: boolean): Promise<HealthReport> => {
    const { database, redis } = parts;
    const [db, rd] = await Promise.all([
      database ? ask(() => database.health(), timeoutMs) : Promise.resolve(undefined),
      redis ? ask(() => redis.health(timeoutMs), timeoutMs) : Promise.resolve(undefined),
    ]);
    const body: HealthReport['body'] = { ok: true, sandbox };
    if (database) body.database = { state: note('database', db), dialect: database.dialect };
    if (redis) body.redis = { state: note('redis', rd) };
    body.ok = body.database?.state !== 'down';
    return { status: body.ok ? 200 : 503, body };
  };
}
