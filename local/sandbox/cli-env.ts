/**
 * Reads the sandbox's settings from an environment object (SANDBOX_*). It takes the object as an
 * argument: only cli.ts touches process.env.
 */
import type { RateLimitAlgorithm, SandboxOptions, SandboxRateLimit } from './types.js';

const ALGORITHMS: readonly RateLimitAlgorithm[] = ['fixed-window', 'sliding-log', 'token-bucket'];

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be a whole number >= ${min}, not "${raw}".`);
  return value;
}

function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(raw)) return false;
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true;
  throw new Error(`${name} must be true or false, not "${env[name]}".`);
}

/** demo, empty, or scale:<pools>:<licenses>[:<licenses of one student>] (e.g. scale:1000:50000:200). */
function readSeed(raw: string): NonNullable<SandboxOptions['seed']> {
  if (raw === 'demo' || raw === 'empty') return raw;
  const match = /^scale:(\d{1,6}):(\d{1,7})(?::(\d{1,6}))?$/.exec(raw);
  if (match && Number(match[1]) >= 1) {
    return {
      scale: { pools: Number(match[1]), licenses: Number(match[2]), heavyStudentLicenses: Number(match[3] ?? 0) },
    };
  }
  throw new Error(
    `SANDBOX_SEED must be demo, empty or scale:<pools>:<licenses>[:<licenses of one student>] (e.g. scale:1000:50000:200), not "${raw}".`,
  );
}

export function readSandboxEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const limit = integer(env, 'SANDBOX_RATE_LIMIT', 25, 0);
  const algorithm = env.SANDBOX_RATE_ALGORITHM || 'sliding-log';
  if (!ALGORITHMS.includes(algorithm as RateLimitAlgorithm)) {
    throw new Error(`SANDBOX_RATE_ALGORITHM must be one of ${ALGORITHMS.join(', ')}, not "${algorithm}".`);
  }
  const rateLimit: SandboxRateLimit | false =
    limit === 0
      ? false // 0 switches rate limiting off
      : {
          limit,
          windowMs: integer(env, 'SANDBOX_RATE_WINDOW_MS', 60_000, 1),
          algorithm: algorithm as RateLimitAlgorithm,
          retryAfter: flag(env, 'SANDBOX_RETRY_AFTER'),
          countRejected: flag(env, 'SANDBOX_COUNT_REJECTED'),
        };
  const seed = readSeed(env.SANDBOX_SEED || 'demo');
  const options: SandboxOptions = {
    host: env.SANDBOX_HOST || '127.0.0.1',
    port: integer(env, 'SANDBOX_PORT', 4010, 0),
    rateLimit,
    maxPageSize: integer(env, 'SANDBOX_MAX_PAGE_SIZE', 100, 1),
    seed,
  };
  if (env.SANDBOX_ADMIN_TOKEN) options.adminToken = env.SANDBOX_ADMIN_TOKEN;
  if (env.SANDBOX_READONLY_TOKEN) options.readOnlyToken = env.SANDBOX_READONLY_TOKEN;
  return options;
}
