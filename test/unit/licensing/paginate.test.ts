import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../../../src/kernel/licensing/errors.js';
import { createPaginator } from '../../../src/kernel/licensing/paginate.js';

const items = (n: number) => Array.from({ length: n }, (_, i) => ({ id: String(i + 1) }));

/** A fake list endpoint over `total` items that refuses page sizes above `max` with a 400. */
function fakeServer(total: number, max = Number.POSITIVE_INFINITY) {
  const data = items(total);
  const calls: { page: number; pageSize: number }[] = [];
  const fetchPage = async (page: number, pageSize: number) => {
    calls.push({ page, pageSize });
    if (pageSize > max) throw new BadRequestError('pageSize too large', { endpoint: 'GET /v1/licenses' });
    return data.slice((page - 1) * pageSize, page * pageSize);
  };
  return { fetchPage, calls };
}

describe('paginator', () => {
  it('walks pages of the large size and stops on a short page', async () => {
    const server = fakeServer(250);
    const all = await createPaginator({ pageSize: 100 }).all(server.fetchPage);
    expect(all).toHaveLength(250);
    expect(server.calls).toEqual([
      { page: 1, pageSize: 100 },
      { page: 2, pageSize: 100 },
      { page: 3, pageSize: 100 },
    ]);
  });

  it('makes one extra request when the total is an exact multiple', async () => {
    const server = fakeServer(200);
    expect(await createPaginator({ pageSize: 100 }).all(server.fetchPage)).toHaveLength(200);
    expect(server.calls).toHaveLength(3);
  });

  it('falls back to 10 when the large size is refused, and remembers it', async () => {
    const paginator = createPaginator({ pageSize: 100 });
    const server = fakeServer(25, 50);
    expect(await paginator.all(server.fetchPage)).toHaveLength(25);
    expect(server.calls.map((c) => c.pageSize)).toEqual([100, 10, 10, 10]);
    expect(paginator.pageSize()).toBe(10);
    const again = fakeServer(5, 50);
    await paginator.all(again.fetchPage);
    expect(again.calls).toEqual([{ page: 1, pageSize: 10 }]);
  });

  it('does not swallow other 400s or a refusal of the default size', async () => {
    const server = fakeServer(5, 5);
    await expect(createPaginator({ pageSize: 100 }).all(server.fetchPage)).rejects.toBeInstanceOf(BadRequestError);
  });

  it('keeps the large size when the fallback to 10 is refused too (the 400 was about something else)', async () => {
    const paginator = createPaginator({ pageSize: 100 });
    const server = fakeServer(5, 5);
    await expect(paginator.all(server.fetchPage)).rejects.toBeInstanceOf(BadRequestError);
    expect(server.calls.map((c) => c.pageSize)).toEqual([100, 10]);
    expect(paginator.pageSize()).toBe(100);
  });

  it('a walk keeps its own page size when another walk lowers the shared one meanwhile', async () => {
    const paginator = createPaginator({ pageSize: 20 });
    const long = fakeServer(50);
    let release = () => {};
    const gate = new Promise<void>((r) => (release = r));
    const slowFetch = async (page: number, pageSize: number) => {
      if (page === 2) await gate;
      return long.fetchPage(page, pageSize);
    };
    const walking = paginator.all(slowFetch);
    await paginator.all(fakeServer(5, 10).fetchPage);
    expect(paginator.pageSize()).toBe(10);
    release();
    expect((await walking).map((i) => i.id)).toEqual(items(50).map((i) => i.id));
    expect(long.calls.map((c) => c.pageSize)).toEqual([20, 20, 20]);
  });

  it('stops when a server ignores the page number and repeats itself', async () => {
    const fetchPage = async () => items(10);
    expect(await createPaginator({ pageSize: 10 }).all(fetchPage)).toHaveLength(10);
  });
});
