import { describe, expect, it } from 'vitest';
import { normalizeScriptError, patchScriptErrors } from '../../../src/kernel/licensing/limiter/limiter-redis.js';

describe('the Redis 7 error-prefix fix for bottleneck', () => {
  it("strips Redis 7's ERR prefix from bottleneck's own script errors only", () => {
    const names = ['SETTINGS_KEY_NOT_FOUND', 'UNKNOWN_CLIENT', 'OVERWEIGHT:2:1'];
    for (const name of names) {
      const error = normalizeScriptError(new Error(`ERR ${name}`));
      expect(error instanceof Error && error.message).toBe(name);
    }
    const other = normalizeScriptError(new Error('ERR unknown command'));
    expect(other instanceof Error && other.message).toBe('ERR unknown command');
    expect(normalizeScriptError('not an error')).toBe('not an error');
  });

  it("wraps the connection's script callback so bottleneck's comparisons match again", () => {
    const seen: unknown[] = [];
    const connection = {
      // bottleneck appends the callback to the script's arguments; the fake calls it with Redis 7's reply.
      __scriptArgs__(name: string, id: string, args: string[], cb: (err: unknown, replies: unknown) => void) {
        cb(new Error('ERR UNKNOWN_CLIENT'), null);
        cb(null, [name, id, ...args]);
        return [0, ...args, cb];
      },
    };
    expect(patchScriptErrors(connection)).toBe(true);
    connection.__scriptArgs__('heartbeat', 'limiter', ['1'], (err, replies) => seen.push(err, replies));
    expect(seen[0] instanceof Error && seen[0].message).toBe('UNKNOWN_CLIENT');
    expect(seen[1]).toBeNull();
    expect(seen[3]).toEqual(['heartbeat', 'limiter', '1']);
  });

  it('reports when the connection has no such method (another bottleneck version)', () => {
    expect(patchScriptErrors({})).toBe(false);
  });
});
