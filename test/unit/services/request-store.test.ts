/** The file request store: survives a restart, and of two decisions on one request exactly one wins. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFileRequestStore } from '../../../src/services/requests/store.js';
import { sampleRequest } from '../../support/requests.js';

const quiet = { debug() {}, info() {}, warn() {}, error() {} };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'request-store-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const request = sampleRequest;

describe('file request store', () => {
  it('keeps requests across a restart (a new store on the same DATA_DIR)', async () => {
    await createFileRequestStore(dir, quiet).put(request('r000000000001'));
    const again = createFileRequestStore(dir, quiet);
    expect((await again.get('r000000000001'))?.courseTitle).toBe('Mastering DAX');
    expect((await again.byRequester('U0NOROLE01')).map((r) => r.id)).toEqual(['r000000000001']);
    expect(JSON.parse(await readFile(join(dir, 'requests.json'), 'utf8'))).toMatchObject({ version: 1 });
  });

  it('the first decision wins; the others learn who decided, and the file holds the winner', async () => {
    const store = createFileRequestStore(dir, quiet);
    await store.put(request('r000000000002'));
    const at = '2026-11-23T09:00:00.000Z';
    const results = await Promise.all([
      store.decide('r000000000002', { kind: 'approve', by: 'U0MGR00001', at }),
      store.decide('r000000000002', { kind: 'deny', by: 'U0WSADMIN1', at, reason: 'no' }),
      store.decide('r000000000002', { kind: 'expire', at }),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results[0]).toMatchObject({ ok: true, request: { status: 'approved', decidedBy: 'U0MGR00001' } });
    expect(results[1]).toMatchObject({ ok: false, reason: 'already', request: { decidedBy: 'U0MGR00001' } });
    const reread = createFileRequestStore(dir, quiet);
    expect((await reread.get('r000000000002'))?.status).toBe('approved');
    expect(await store.decide('r0000000000ff', { kind: 'expire', at })).toEqual({ ok: false, reason: 'not-found' });
  });
});
