import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import type { License, Pool } from '../../../src/kernel/domain/types.js';
import { callSandbox } from '../../support/sandbox.js';

const NOW = new Date('2025-03-10T12:00:00Z');
let sandbox: RunningSandbox;

const assign = (poolId: string, body: unknown) => callSandbox(sandbox, 'POST', `/v1/pool/${poolId}/license`, { body });
const pool = (id: string): Pool => {
  const found = sandbox.inspect.pool(id);
  if (!found) throw new Error(`no pool ${id}`);
  return found;
};
const codeOf = (json: unknown): unknown => (json as { code?: unknown }).code;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, now: () => NOW, rateLimit: false });
});
afterEach(() => sandbox.close());

describe('POST /v1/pool/{id}/license: effects', () => {
  it('takes a seat, creates the missing student named "Student", and answers with number ids', async () => {
    const before = pool('2001');
    const { status, json } = await assign('2001', { email: 'new.person@contoso.com' });
    expect(status).toBe(200);
    const body = json as Record<string, unknown> & { student: Record<string, unknown> };
    expect(typeof body.id).toBe('number');
    expect(typeof body.poolId).toBe('number');
    expect(typeof body.student.id).toBe('number');
    expect(body).toMatchObject({
      poolId: 2001,
      courseId: '301',
      start: '2025-03-10T12:00:00+00:00',
      end: before.end,
      active: true,
      revokable: true,
      editable: true,
      student: { name: 'Student', email: 'new.person@contoso.com' },
    });
    const after = pool('2001');
    expect(after.availableLicenses).toBe(before.availableLicenses - 1);
    expect(after.assignedLicenses).toBe(before.assignedLicenses + 1);
    // Everywhere else the same ids are strings.
    const read = await callSandbox(sandbox, 'GET', `/v1/license/${String(body.id)}`);
    expect(read.json).toMatchObject({ id: String(body.id), poolId: '2001', student: { id: String(body.student.id) } });
    expect(sandbox.inspect.student({ email: 'new.person@contoso.com' })?.courses).toHaveLength(1);
  });

  it('uses the given name for a new student and keeps an existing student as is', async () => {
    const created = await assign('2001', { email: 'grace@fabrikam.com', name: 'Grace Hopper' });
    expect((created.json as License).student.name).toBe('Grace Hopper');
    // Student 3013 (Sofia) only has revoked licenses, so she may be enrolled again.
    const existing = sandbox.inspect.student({ id: '3013' });
    expect(existing?.courses.every((c) => !c.licenseActive)).toBe(true);
    const again = await assign('2001', { email: existing?.email.toUpperCase(), name: 'Someone Else' });
    expect(again.status).toBe(200);
    expect((again.json as License).student).toMatchObject({ id: 3013, name: existing?.name });
  });

  it('ends the license at the end of the given day, or at the pool end', async () => {
    const day = await assign('2001', { email: 'a@contoso.com', endDate: '2025-04-30' });
    expect((day.json as License).end).toBe('2025-04-30T23:59:59+00:00');
    const today = await assign('2001', { email: 'b@contoso.com', endDate: '2025-03-10' });
    expect(today.status).toBe(200);
    expect((today.json as License).active).toBe(true);
    const poolEndDay = pool('2001').end.slice(0, 10);
    const atEnd = await assign('2001', { email: 'c@contoso.com', endDate: poolEndDay });
    expect((atEnd.json as License).end).toBe(pool('2001').end);
  });

  it('recycles the oldest active license of a full transferable pool', async () => {
    const before = pool('2003');
    expect(before.availableLicenses).toBe(0);
    const active = sandbox.inspect.licenses({ poolId: '2003' });
    const oldest = [...active].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))[0];
    const { status, json } = await assign('2003', { email: 'newcomer@contoso.com', recycle: true });
    expect(status).toBe(200);
    expect((json as License).active).toBe(true);
    const revoked = sandbox.inspect.license(oldest?.id ?? '');
    expect(revoked).toMatchObject({ active: false, end: '2025-03-10T12:00:00+00:00', revokable: false });
    expect(pool('2003')).toMatchObject({ assignedLicenses: 8, availableLicenses: 0 });
    expect(sandbox.inspect.licenses({ poolId: '2003' })).toHaveLength(8);
  });

  it('breaks a tie on start by revoking the lowest id', async () => {
    const start = '2025-01-01T09:00:00+00:00';
    const tie = await startSandbox({
      port: 0,
      now: () => NOW,
      rateLimit: false,
      seed: {
        me: { id: '1', name: 'T', email: 't@contoso.com', allowedDomainsForTransferableLicenses: ['contoso.com'] },
        courses: [{ id: '1', title: 'Tie' }],
        pools: [
          {
            id: '1',
            course: { id: '1', title: 'Tie' },
            start,
            end: '2025-12-31T23:59:59+00:00',
            transferable: true,
            licenses: 2,
          },
        ],
        students: [
          { id: '1', name: 'One', email: 'one@contoso.com' },
          { id: '2', name: 'Two', email: 'two@contoso.com' },
        ],
        licenses: [
          { id: '12', poolId: '1', studentId: '2', start, end: '2025-12-31T23:59:59+00:00', active: true },
          { id: '11', poolId: '1', studentId: '1', start, end: '2025-12-31T23:59:59+00:00', active: true },
        ],
        progress: [],
      },
    });
    try {
      const answer = await callSandbox(tie, 'POST', '/v1/pool/1/license', {
        body: { email: 'three@contoso.com', recycle: true },
      });
      expect(answer.status).toBe(200);
      expect((answer.json as { student: { email: string } }).student.email).toBe('three@contoso.com');
      expect(tie.inspect.license('11')?.active).toBe(false);
      expect(tie.inspect.license('12')?.active).toBe(true);
    } finally {
      await tie.close();
    }
  });

  it('assigns normally when recycle is true but a seat is free', async () => {
    const before = pool('2001');
    expect((await assign('2001', { email: 'free@contoso.com', recycle: true })).status).toBe(200);
    expect(pool('2001').availableLicenses).toBe(before.availableLicenses - 1);
    expect(sandbox.inspect.licenses({ poolId: '2001' })).toHaveLength(before.assignedLicenses + 1);
  });
});

describe('POST /v1/pool/{id}/license: rules', () => {
  it('refuses a student already enrolled in the course, in any pool of it', async () => {
    const alberto = 'alberto.rossi@contoso.com'; // active in pool 2001, course 301
    for (const poolId of ['2001', '2002']) {
      const answer = await assign(poolId, { email: alberto });
      expect(answer.status).toBe(400);
      expect(codeOf(answer.json)).toBe('student_already_enrolled');
    }
    // Another course is fine.
    expect((await assign('2004', { email: alberto })).status).toBe(200);
  });

  it('refuses a full pool without recycle, and leaves every license alone', async () => {
    const before = sandbox.inspect.licenses({ includeInactive: true });
    const answer = await assign('2003', { email: 'late@contoso.com' });
    expect(answer.status).toBe(400);
    expect(answer.json).toEqual({ code: 'no_license_available', message: expect.stringContaining('recycle') });
    expect(sandbox.inspect.licenses({ includeInactive: true })).toEqual(before);
  });

  it('refuses recycle on a full untransferable pool; its seats stay consumed', async () => {
    expect(pool('2005')).toMatchObject({ licenses: 6, assignedLicenses: 4, availableLicenses: 2 });
    expect((await assign('2005', { email: 'p1@gmail.com' })).status).toBe(200);
    expect((await assign('2005', { email: 'p2@gmail.com' })).status).toBe(200);
    expect(pool('2005')).toMatchObject({ assignedLicenses: 6, availableLicenses: 0 });
    const plain = await assign('2005', { email: 'p3@gmail.com' });
    expect(codeOf(plain.json)).toBe('no_license_available');
    const recycle = await assign('2005', { email: 'p3@gmail.com', recycle: true });
    expect(recycle.status).toBe(400);
    expect(codeOf(recycle.json)).toBe('pool_not_transferable');
    expect(sandbox.inspect.licenses({ poolId: '2005' })).toHaveLength(6);
    // The untransferable pool 2002 keeps the seat of its license that ran out.
    expect(pool('2002')).toMatchObject({ assignedLicenses: 7, availableLicenses: 3 });
    expect(sandbox.inspect.licenses({ poolId: '2002' })).toHaveLength(6);
  });

  it('allows transferable licenses only for the allowed domains (exact, any case)', async () => {
    const outside = await assign('2001', { email: 'someone@gmail.com' });
    expect(outside.status).toBe(400);
    expect(codeOf(outside.json)).toBe('domain_not_allowed');
    expect(codeOf((await assign('2001', { email: 'x@mail.contoso.com' })).json)).toBe('domain_not_allowed');
    expect(codeOf((await assign('2001', { email: 'x@contoso.com.evil.test' })).json)).toBe('domain_not_allowed');
    expect((await assign('2001', { email: 'Upper@FABRIKAM.COM' })).status).toBe(200);
    // Untransferable pools take any address.
    expect((await assign('2005', { email: 'someone@gmail.com' })).status).toBe(200);
  });

  it('refuses an end date in the past or beyond the pool end, and a pool that has ended', async () => {
    const past = await assign('2001', { email: 'a@contoso.com', endDate: '2025-03-09' });
    expect([past.status, codeOf(past.json)]).toEqual([400, 'date_in_past']);
    const dayAfterEnd = new Date(Date.parse(pool('2001').end) + 86_400_000).toISOString().slice(0, 10);
    const beyond = await assign('2001', { email: 'a@contoso.com', endDate: dayAfterEnd });
    expect([beyond.status, codeOf(beyond.json)]).toEqual([400, 'date_beyond_pool_end']);
    const ended = await assign('2006', { email: 'a@contoso.com' });
    expect([ended.status, codeOf(ended.json)]).toEqual([400, 'pool_ended']);
    expect(pool('2001').availableLicenses).toBe(7);
  });

  it('answers 400 for malformed bodies, e-mails and dates, and 404 for an unknown pool', async () => {
    const cases: [unknown, string][] = [
      [{}, 'invalid_body'],
      [[1, 2], 'invalid_body'],
      [{ email: 'a@contoso.com', recycle: 'yes' }, 'invalid_body'],
      [{ email: 'a@contoso.com', name: 5 }, 'invalid_body'],
      [{ email: 'not-an-email' }, 'invalid_email'],
      [{ email: 'a@b' }, 'invalid_email'],
      [{ email: 42 }, 'invalid_email'],
      [{ email: 'a@contoso.com', endDate: '2025-02-30' }, 'invalid_date'],
      [{ email: 'a@contoso.com', endDate: '2025-3-20' }, 'invalid_date'],
      [{ email: 'a@contoso.com', endDate: '20/03/2025' }, 'invalid_date'],
      [{ email: 'a@contoso.com', endDate: 20250320 }, 'invalid_date'],
    ];
    for (const [body, code] of cases) {
      const answer = await assign('2001', body);
      expect([answer.status, codeOf(answer.json)], JSON.stringify(body)).toEqual([400, code]);
      expect(typeof (answer.json as { message: unknown }).message).toBe('string');
    }
    const broken = await callSandbox(sandbox, 'POST', '/v1/pool/2001/license', {
      rawBody: '{"email": "a@contoso.com"',
    });
    expect([broken.status, codeOf(broken.json)]).toEqual([400, 'invalid_body']);
    const empty = await callSandbox(sandbox, 'POST', '/v1/pool/2001/license', { rawBody: '' });
    expect([empty.status, codeOf(empty.json)]).toEqual([400, 'invalid_body']);
    const unknown = await assign('999', { email: 'a@contoso.com' });
    expect([unknown.status, codeOf(unknown.json)]).toEqual([404, 'not_found']);
    expect(pool('2001').availableLicenses).toBe(7);
  });
});
