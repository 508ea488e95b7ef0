/**
 * The course requests' store on SQLite and PostgreSQL: a request read back as written; the first
 * decision wins, also when several are taken at once; a place in line is the request's rank (joined
 * only from 'approved', in order, reordered by admins, dropped when the request leaves); decided
 * requests are pruned; and the files of an earlier version are imported once, or stop the start.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createIntents } from '../../../src/kernel/services/writes/intents.js';
import { createDbRequestStore } from '../../../src/requests/db/request-store.js';
import type { CourseRequest } from '../../../src/requests/domain/requests.js';
import { ImportProblem, importRequestFiles } from '../../../src/requests/services/import.js';
import { cleanupsAfterEach } from '../../support/cleanups.js';
import { testDatabases } from '../../support/records.js';
import { sampleRequest } from '../../support/requests.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
const cleanups = cleanupsAfterEach();

const req = (id: string, extra: Partial<CourseRequest> = {}): CourseRequest => ({ ...sampleRequest(id), ...extra });

describe.each(testDatabases())('the course requests store on $dialect', ({ skip, open }) => {
  async function opened() {
    const t = await open();
    cleanups.push(t.close);
    const now = () => new Date('2026-11-25T12:00:00.000Z');
    const store = createDbRequestStore({ db: t.records.db, dialect: t.records.dialect, now });
    return { ...t, store, now };
  }

  it.skipIf(skip !== undefined)('a request reads back as written, by id, requester and status', async () => {
    const { store } = await opened();
    await store.put(req('r1', { reason: 'for the ‘DAX’ course 😀' }));
    await store.put(req('r2', { requester: 'U0OTHER001', createdAt: '2026-11-24T08:00:00.000Z' }));
    await store.put(req('r3', { createdAt: '2026-11-22T08:00:00.000Z', status: 'denied' }));
    expect(await store.get('r1')).toEqual(req('r1', { reason: 'for the ‘DAX’ course 😀' }));
    expect(await store.get('nope')).toBeUndefined();
    expect((await store.byRequester('U0NOROLE01')).map((r) => r.id)).toEqual(['r3', 'r1']);
    expect((await store.byStatus('pending')).map((r) => r.id)).toEqual(['r1', 'r2']);
    const changed = await store.update('r1', (r) => {
      r.remindedAt = '2026-11-25T00:00:00.000Z';
    });
    expect(changed?.remindedAt).toBe('2026-11-25T00:00:00.000Z');
    expect((await store.get('r1'))?.remindedAt).toBe('2026-11-25T00:00:00.000Z');
    expect(await store.update('nope', () => undefined)).toBeUndefined();
  });

  it.skipIf(skip !== undefined)('of ten decisions taken at once, exactly one wins; the others learn it', async () => {
    const { store } = await opened();
    await store.put(req('r1'));
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.decide('r1', { kind: 'approve', by: `U0ADMIN00${i}`, at: '2026-11-25T12:00:00.000Z' }),
      ),
    );
    const won = results.filter((r) => r.ok);
    expect(won).toHaveLength(1);
    const winner = won[0]?.ok ? won[0].request.decidedBy : undefined;
    for (const r of results.filter((x) => !x.ok)) {
      expect(r).toMatchObject({ ok: false, reason: 'already', request: { status: 'approved', decidedBy: winner } });
    }
    expect(await store.decide('nope', { kind: 'expire', at: 'x' })).toEqual({ ok: false, reason: 'not-found' });
  });

  it.skipIf(skip !== undefined)(
    'a place in line is the rank: joined only from approved, in order, reordered, dropped on leaving',
    async () => {
      const { store } = await opened();
      for (const id of ['a', 'b', 'c']) await store.put(req(id, { status: 'approved', decidedBy: 'U0MGR00001' }));
      await store.put(req('p', { status: 'pending' }));
      await store.put(req('other', { status: 'approved', poolId: '2003' }));
      // Joined at once: each gets its own place.
      const joined = await Promise.all(['a', 'b', 'c'].map((id) => store.joinLine(id, '2026-11-25T12:00:00.000Z')));
      expect(joined.map((j) => (j.ok ? j.place : 0)).sort()).toEqual([1, 2, 3]);
      expect(await store.joinLine('p', 'x')).toMatchObject({ ok: false, request: { status: 'pending' } });
      expect(await store.joinLine('a', 'x')).toMatchObject({ ok: false, request: { status: 'waitlisted' } });
      expect((await store.joinLine('other', 'x')).ok).toBe(true);
      const order = (await store.lines('2002'))['2002']?.map((e) => e.requestId) ?? [];
      expect(order).toHaveLength(3);
      expect(Object.keys(await store.lines())).toEqual(['2002', '2003']);
      expect((await store.lines())['2002']?.[0]).toMatchObject({ poolId: '2002', approver: 'U0MGR00001' });
      // An admin moves the last to the front.
      const [first, second, third] = order as [string, string, string];
      expect(await store.waitlistStore().moveTo(third, 0)).toBe(1);
      expect((await store.lines('2002'))['2002']?.map((e) => e.requestId)).toEqual([third, first, second]);
      expect(await store.placeOf(first)).toBe(2);
      // Being assigned keeps the place; leaving the line (assigned) drops it.
      await store.swap(third, ['waitlisted'], (x) => ({ ...x, status: 'assigning' }));
      expect(await store.placeOf(third)).toBe(1);
      await store.swap(third, ['assigning'], (x) => ({ ...x, status: 'assigned' }));
      expect(await store.placeOf(third)).toBeUndefined();
      expect((await store.lines('2002'))['2002']?.map((e) => e.requestId)).toEqual([first, second]);
      // A compare-and-set from the wrong status changes nothing.
      expect(await store.swap(third, ['waitlisted'], (x) => ({ ...x, status: 'denied' }))).toMatchObject({
        changed: false,
        request: { status: 'assigned' },
      });
      // The waitlist's view: a removal through it drops the rank.
      expect(await store.waitlistStore().leave(first)).toMatchObject({ requestId: first, poolId: '2002' });
      expect(await store.waitlistStore().leave(first)).toBeUndefined();
      expect(await store.placeOf(first)).toBeUndefined();
      expect(await store.placeOf(second)).toBe(1);
    },
  );

  it.skipIf(skip !== undefined)(
    'a request being assigned cannot join a line (the click races the assign)',
    async () => {
      const { store } = await opened();
      await store.put(req('r1', { status: 'approved' }));
      await store.swap('r1', ['approved'], (x) => ({ ...x, status: 'assigning' }));
      expect(await store.joinLine('r1', 'x')).toMatchObject({ ok: false, request: { status: 'assigning' } });
      expect(await store.placeOf('r1')).toBeUndefined();
    },
  );

  it.skipIf(skip !== undefined)('decided requests beyond what is kept are pruned; undecided ones never', async () => {
    const { store } = await opened();
    await store.put(
      req('old', { status: 'denied', createdAt: '2026-09-01T00:00:00.000Z', decidedAt: '2026-09-02T00:00:00.000Z' }),
    );
    await store.put(
      req('new', { status: 'denied', createdAt: '2026-11-20T00:00:00.000Z', decidedAt: '2026-11-21T00:00:00.000Z' }),
    );
    await store.put(req('open', { createdAt: '2026-09-01T00:00:00.000Z' }));
    expect(await store.prune?.(new Date('2026-11-25T12:00:00.000Z'))).toBe(1);
    expect((await store.byRequester('U0NOROLE01')).map((r) => r.id).sort()).toEqual(['new', 'open']);
  });

  it.skipIf(skip !== undefined)(
    "an earlier version's files are imported once: lines in order, a running approval read back later, files moved aside",
    async () => {
      const { records, dataDir, store, now } = await opened();
      const requests = {
        version: 1,
        requests: {
          w1: req('w1', { status: 'waitlisted', poolId: '2003' }),
          w2: req('w2', { status: 'waitlisted', poolId: '2003' }),
          w3: req('w3', { status: 'waitlisted', poolId: '2003' }),
          done: req('done', { status: 'assigned', poolId: '2003', licenseId: '4001' }),
          running: req('running', {
            status: 'approved',
            decidedBy: 'U0MGR00001',
            decidedAt: '2026-11-25T11:00:00.000Z',
          }),
          full: req('full', { status: 'approved', poolId: '2004', seatChoice: { transferable: true, waitlist: true } }),
        },
      };
      const entry = (id: string) => ({ requestId: id, poolId: '2003', requester: 'U0NOROLE01', since: 'x' });
      writeFileSync(join(dataDir, 'requests.json'), JSON.stringify(requests));
      // w2 is first; 'done' was assigned but left in line (killed after the POST); w3 is in no line.
      writeFileSync(
        join(dataDir, 'waitlist.json'),
        JSON.stringify({ '2003': [entry('w2'), entry('done'), entry('w1')] }),
      );
      const intents = createIntents(records, now);
      const result = await importRequestFiles({ records, intents, dataDir, logger, now });
      expect(result).toEqual({ requests: 6, waitlisted: 3, assigning: 1 });
      expect((await store.lines('2003'))['2003']?.map((e) => e.requestId)).toEqual(['w2', 'w1', 'w3']);
      expect(await store.placeOf('done')).toBeUndefined();
      const running = await store.get('running');
      expect(running?.status).toBe('assigning');
      expect(await intents.openFor('running')).toMatchObject({ kind: 'request-assign', owner: 'U0MGR00001' });
      expect((await store.get('full'))?.status).toBe('approved');
      const files = readdirSync(dataDir);
      expect(files.filter((f) => f.startsWith('requests.json.imported-'))).toHaveLength(1);
      expect(files.filter((f) => f.startsWith('waitlist.json.imported-'))).toHaveLength(1);
      expect(existsSync(join(dataDir, 'requests.json'))).toBe(false);
      // Nothing left to import at the next start.
      expect(await importRequestFiles({ records, intents, dataDir, logger, now })).toBeUndefined();
    },
  );

  it.skipIf(skip !== undefined)(
    'a file that cannot be read stops the start with a sentence naming it, and nothing is imported',
    async () => {
      const { records, dataDir, store, now } = await opened();
      const intents = createIntents(records, now);
      const good = JSON.stringify({ version: 1, requests: { r1: req('r1') } });
      const cases: [string, string, string, RegExp][] = [
        ['requests.json', good.slice(0, good.length - 7), '{}', /requests\.json is not complete JSON/],
        ['requests.json', JSON.stringify({ version: 1, requests: { r1: null } }), '{}', /not complete \(entry "r1"\)/],
        ['requests.json', JSON.stringify([1, 2]), '{}', /is not a requests file/],
        ['waitlist.json', good, '{"2003": [{"requestId": "r1", "poolId": "20', /waitlist\.json is not complete JSON/],
        ['waitlist.json', good, '{"2003": [null]}', /waitlist\.json holds an entry that is not complete/],
      ];
      for (const [file, requestsText, waitlistText, sentence] of cases) {
        writeFileSync(join(dataDir, 'requests.json'), requestsText);
        writeFileSync(join(dataDir, 'waitlist.json'), waitlistText);
        const error = await importRequestFiles({ records, intents, dataDir, logger, now }).catch((e: unknown) => e);
        expect(error, file).toBeInstanceOf(ImportProblem);
        expect(String((error as Error).message)).toMatch(sentence);
        expect(String((error as Error).message)).toContain('restore it from a backup');
        expect(await store.get('r1')).toBeUndefined();
        expect(existsSync(join(dataDir, 'requests.json'))).toBe(true);
      }
    },
  );
});
