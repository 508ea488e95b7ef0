import { describe, expect, it } from 'vitest';
import { redisPrefix } from '../../../src/kernel/services/redis.js';

describe('redisPrefix: one key prefix per deployment (licensing API URL and token)', () => {
  const url = 'https://www.sqlbi.com/api/licensing';
  it('is the same for every replica of one deployment, and never shows the token', () => {
    const p = redisPrefix(url, 'lic-S3KR1T-token');
    expect(p).toMatch(/^license-desk:[0-9a-f]{16}:$/);
    expect(redisPrefix(`${url}/`, 'lic-S3KR1T-token')).toBe(p);
    expect(p).not.toContain('S3KR1T');
  });
  it('differs for another token (another account) or another licensing API', () => {
    const p = redisPrefix(url, 'token-a');
    expect(redisPrefix(url, 'token-b')).not.toBe(p);
    expect(redisPrefix('https://staging.example/api/licensing', 'token-a')).not.toBe(p);
  });
});
