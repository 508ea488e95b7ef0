import { describe, expect, it } from 'vitest';
import { readSandboxEnv } from '../../../local/sandbox/cli-env.js';

describe('SANDBOX_* settings', () => {
  it('defaults to 127.0.0.1:4010, 25 per minute on a sliding log, demo data, random tokens', () => {
    expect(readSandboxEnv({})).toEqual({
      host: '127.0.0.1',
      port: 4010,
      rateLimit: { limit: 25, windowMs: 60_000, algorithm: 'sliding-log', retryAfter: false, countRejected: false },
      maxPageSize: 100,
      seed: 'demo',
    });
  });

  it('reads every setting', () => {
    expect(
      readSandboxEnv({
        SANDBOX_HOST: '0.0.0.0',
        SANDBOX_PORT: '0',
        SANDBOX_RATE_LIMIT: '10',
        SANDBOX_RATE_WINDOW_MS: '3000',
        SANDBOX_RATE_ALGORITHM: 'token-bucket',
        SANDBOX_RETRY_AFTER: 'true',
        SANDBOX_COUNT_REJECTED: '1',
        SANDBOX_MAX_PAGE_SIZE: '50',
        SANDBOX_SEED: 'empty',
        SANDBOX_ADMIN_TOKEN: 'a',
        SANDBOX_READONLY_TOKEN: 'r',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 0,
      rateLimit: { limit: 10, windowMs: 3_000, algorithm: 'token-bucket', retryAfter: true, countRejected: true },
      maxPageSize: 50,
      seed: 'empty',
      adminToken: 'a',
      readOnlyToken: 'r',
    });
    expect(readSandboxEnv({ SANDBOX_RATE_LIMIT: '0' }).rateLimit).toBe(false);
  });

  it('refuses values it cannot use, naming the variable', () => {
    expect(() => readSandboxEnv({ SANDBOX_PORT: 'abc' })).toThrow(/SANDBOX_PORT/);
    expect(() => readSandboxEnv({ SANDBOX_RATE_ALGORITHM: 'leaky' })).toThrow(/SANDBOX_RATE_ALGORITHM/);
    expect(() => readSandboxEnv({ SANDBOX_RETRY_AFTER: 'maybe' })).toThrow(/SANDBOX_RETRY_AFTER/);
    expect(() => readSandboxEnv({ SANDBOX_SEED: 'full' })).toThrow(/SANDBOX_SEED/);
    expect(() => readSandboxEnv({ SANDBOX_SEED: 'scale:0:10' })).toThrow(/scale:<pools>:<licenses>/);
  });

  it('a generated big account: scale:<pools>:<licenses>[:<licenses of one student>]', () => {
    expect(readSandboxEnv({ SANDBOX_SEED: 'scale:1000:50000:200' }).seed).toEqual({
      scale: { pools: 1000, licenses: 50_000, heavyStudentLicenses: 200 },
    });
    expect(readSandboxEnv({ SANDBOX_SEED: 'scale:10:100' }).seed).toEqual({
      scale: { pools: 10, licenses: 100, heavyStudentLicenses: 0 },
    });
  });
});
