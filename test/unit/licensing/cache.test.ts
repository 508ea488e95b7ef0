import { describe, expect, it } from 'vitest';
import { createReadCache } from '../../../src/kernel/licensing/cache.js';
import { invalidateForWrite, withInvalidation } from '../../../src/kernel/licensing/cache-keys.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function counter<T>(values: () => T) {
  let calls = 0;
  return {
    load: async () => {
      calls++;
      return values();
    },
    calls: () => calls,
  };
}

describe('read cache', () => {
  it('coalesces concurrent identical reads into one load', async () => {
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    const gate = deferred<{ n: number }>();
    let calls = 0;
    const load = () => {
      calls++;
      return gate.promise;
    };
    const reads = Array.from({ length: 10 }, () => cache.read('pools', load));
    gate.resolve({ n: 1 });
    const results = await Promise.all(reads);
    expect(calls).toBe(1);
    expect(results.every((r) => r.n === 1)).toBe(true);
  });

  it('serves from cache within the TTL and loads again after it', async () => {
    let t = 0;
    const cache = createReadCache({ ttlMs: 1_000, now: () => t });
    const source = counter(() => ({ v: t }));
    await cache.read('me', source.load);
    t = 999;
    expect((await cache.read('me', source.load)).v).toBe(0);
    expect(source.calls()).toBe(1);
    t = 1_000;
    expect((await cache.read('me', source.load)).v).toBe(1_000);
    expect(source.calls()).toBe(2);
  });

  it('fresh skips the stored value and refreshes it', async () => {
    let n = 0;
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    const load = async () => ++n;
    expect(await cache.read('me', load)).toBe(1);
    expect(await cache.read('me', load, { fresh: true })).toBe(2);
    expect(await cache.read('me', load)).toBe(2);
  });

  it('an interactive read does not wait behind a background one in flight', async () => {
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    const slow = deferred<string>();
    const background = cache.read('pools', () => slow.promise, { priority: 'background' });
    const joined = cache.read('pools', async () => 'unused', { priority: 'background' });
    expect(await cache.read('pools', async () => 'interactive', { priority: 'interactive' })).toBe('interactive');
    slow.resolve('background');
    expect(await background).toBe('background');
    expect(await joined).toBe('background');
    // The interactive result is the one stored; the slower background one does not overwrite it.
    expect(await cache.read('pools', async () => 'reloaded')).toBe('interactive');
  });

  it('never caches errors', async () => {
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    let fail = true;
    const load = async () => {
      if (fail) throw new Error('boom');
      return 'ok';
    };
    await expect(cache.read('pools', load)).rejects.toThrow('boom');
    fail = false;
    expect(await cache.read('pools', load)).toBe('ok');
  });

  it('ttl 0 disables storage and coalescing', async () => {
    const cache = createReadCache({ ttlMs: 0 });
    const source = counter(() => 1);
    await Promise.all([cache.read('me', source.load), cache.read('me', source.load)]);
    await cache.read('me', source.load);
    expect(source.calls()).toBe(3);
    expect(cache.size()).toBe(0);
  });

  it('a read in flight during an invalidation does not store its stale result', async () => {
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    const gate = deferred<string>();
    const stale = cache.read('pools', () => gate.promise);
    cache.invalidate('pools');
    gate.resolve('stale');
    expect(await stale).toBe('stale');
    expect(await cache.read('pools', async () => 'new')).toBe('new');
  });

  it('hands out copies, so callers cannot edit the cache', async () => {
    const cache = createReadCache({ ttlMs: 1_000, now: () => 0 });
    const first = await cache.read('me', async () => ({ name: 'a' }));
    first.name = 'edited';
    expect((await cache.read('me', async () => ({ name: 'b' }))).name).toBe('a');
  });
});

describe('write invalidation map', () => {
  async function filled() {
    const cache = createReadCache({ ttlMs: 60_000, now: () => 0 });
    for (const key of ['me', 'courses', 'course:c1', 'pools', 'pool:1', 'pool:2'])
      await cache.read(key, async () => key);
    return cache;
  }
  const survivors = async (cache: Awaited<ReturnType<typeof filled>>) => {
    const left: string[] = [];
    for (const key of ['me', 'courses', 'course:c1', 'pools', 'pool:1', 'pool:2']) {
      if ((await cache.read(key, async () => 'reloaded')) === key) left.push(key);
    }
    return left;
  };

  it('a write on a known pool drops that pool, the list, me and courses', async () => {
    const cache = await filled();
    invalidateForWrite(cache, '1');
    expect(await survivors(cache)).toEqual(['pool:2']);
  });

  it('a write on an unknown pool drops every pool entry', async () => {
    const cache = await filled();
    invalidateForWrite(cache, undefined);
    expect(await survivors(cache)).toEqual([]);
  });

  it('invalidates after a failed write too', async () => {
    const cache = await filled();
    await expect(
      withInvalidation(
        cache,
        async () => {
          throw new Error('outcome unknown');
        },
        () => '2',
      ),
    ).rejects.toThrow('outcome unknown');
    expect(await survivors(cache)).toEqual(['pool:1']);
  });
});
