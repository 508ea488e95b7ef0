import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import type { License, Pool, Student } from '../../../src/kernel/domain/types.js';
import { callSandbox } from '../../support/sandbox.js';

const START = new Date('2025-03-10T12:00:00Z');
let now = START;
let sandbox: RunningSandbox;

const patch = (id: string, body: unknown) => callSandbox(sandbox, 'PATCH', `/v1/license/${id}`, { body });
const revoke = (id: string) => callSandbox(sandbox, 'DELETE', `/v1/license/${id}`);
const codeOf = (json: unknown): unknown => (json as { code?: unknown }).code;
const pool = (id: string): Pool => {
  const found = sandbox.inspect.pool(id);
  if (!found) throw new Error(`no pool ${id}`);
  return found;
};
/** The first active license of a pool, by id. */
const activeIn = (poolId: string): License => {
  const found = sandbox.inspect.licenses({ poolId })[0];
  if (!found) throw new Error(`no active license in ${poolId}`);
  return found;
};

beforeEach(async () => {
  now = START;
  sandbox = await startSandbox({ port: 0, now: () => now, rateLimit: false });
});
afterEach(() => sandbox.close());

describe('PATCH /v1/license/{id}', () => {
  it('moves the end date within the pool and keeps the license active', async () => {
    const license = activeIn('2001');
    const { status, json } = await patch(license.id, { endDate: '2025-05-31' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: license.id, end: '2025-05-31T23:59:59+00:00', active: true, editable: true });
    expect(sandbox.inspect.license(license.id)?.end).toBe('2025-05-31T23:59:59+00:00');
    const today = await patch(license.id, { endDate: '2025-03-10' });
    expect(today.json).toMatchObject({ end: '2025-03-10T23:59:59+00:00', active: true });
  });

  it('refuses a date beyond the pool end and changes nothing', async () => {
    const license = activeIn('2001');
    const dayAfterEnd = new Date(Date.parse(pool('2001').end) + 86_400_000).toISOString().slice(0, 10);
    const answer = await patch(license.id, { endDate: dayAfterEnd });
    expect([answer.status, codeOf(answer.json)]).toEqual([400, 'date_beyond_pool_end']);
    expect(sandbox.inspect.license(license.id)).toEqual(license);
    expect((await patch(license.id, { endDate: pool('2001').end.slice(0, 10) })).status).toBe(200);
  });

  it('expires the license for good with a past date, and returns the seat of a transferable pool', async () => {
    const license = activeIn('2001');
    const before = pool('2001');
    const { status, json } = await patch(license.id, { endDate: '2025-03-01' });
    expect(status).toBe(200);
    expect(json).toMatchObject({ end: '2025-03-01T23:59:59+00:00', active: false, revokable: false, editable: false });
    expect(pool('2001')).toMatchObject({
      assignedLicenses: before.assignedLicenses - 1,
      availableLicenses: before.availableLicenses + 1,
    });
    const again = await patch(license.id, { endDate: '2025-06-01' });
    expect([again.status, codeOf(again.json)]).toEqual([400, 'license_inactive']);
    expect(sandbox.inspect.license(license.id)?.active).toBe(false);
    expect(codeOf((await revoke(license.id)).json)).toBe('license_inactive');
  });

  it('refuses licenses of an untransferable pool, expired licenses and revoked ones', async () => {
    const untransferable = await patch(activeIn('2002').id, { endDate: '2025-05-31' });
    expect([untransferable.status, codeOf(untransferable.json)]).toEqual([400, 'pool_not_transferable']);
    const expiredId = sandbox.inspect.licenses({ poolId: '2006', includeInactive: true })[0]?.id ?? '';
    const expired = await patch(expiredId, { endDate: '2025-05-31' });
    expect([expired.status, codeOf(expired.json)]).toEqual([400, 'license_expired']);
    const revokedId =
      sandbox.inspect.licenses({ poolId: '2001', includeInactive: true }).find((l) => !l.active)?.id ?? '';
    const revoked = await patch(revokedId, { endDate: '2025-05-31' });
    expect([revoked.status, codeOf(revoked.json)]).toEqual([400, 'license_inactive']);
  });

  it('answers 400 for a missing or malformed date and 404 for an unknown license', async () => {
    const id = activeIn('2001').id;
    expect(codeOf((await patch(id, {})).json)).toBe('invalid_body');
    expect(codeOf((await patch(id, { endDate: '2025-02-29' })).json)).toBe('invalid_date');
    expect(codeOf((await patch(id, { endDate: '31.05.2025' })).json)).toBe('invalid_date');
    const broken = await callSandbox(sandbox, 'PATCH', `/v1/license/${id}`, { rawBody: 'endDate=2025-05-31' });
    expect([broken.status, codeOf(broken.json)]).toEqual([400, 'invalid_body']);
    const unknown = await patch('99999', { endDate: '2025-05-31' });
    expect([unknown.status, codeOf(unknown.json)]).toEqual([404, 'not_found']);
  });

  it('lets a license expire when the clock passes its end, freeing the seat', async () => {
    const ending = sandbox.inspect.licenses({ poolId: '2001' }).find((l) => l.end.startsWith('2025-03-13'));
    expect(ending).toBeDefined();
    const before = pool('2001');
    now = new Date('2025-03-14T00:00:01Z');
    const read = await callSandbox(sandbox, 'GET', `/v1/license/${ending?.id}`);
    expect(read.json).toMatchObject({ active: false, revokable: false, editable: false });
    expect(pool('2001').availableLicenses).toBe(before.availableLicenses + 1);
    expect(codeOf((await patch(ending?.id ?? '', { endDate: '2025-04-01' })).json)).toBe('license_expired');
  });
});

describe('DELETE /v1/license/{id}', () => {
  it('revokes now and returns the seat to a transferable pool', async () => {
    const license = activeIn('2003');
    expect(pool('2003')).toMatchObject({ assignedLicenses: 8, availableLicenses: 0 });
    const { status, json } = await revoke(license.id);
    expect(status).toBe(200);
    expect(json).toMatchObject({ id: license.id, active: false, end: '2025-03-10T12:00:00+00:00', revokable: false });
    expect(pool('2003')).toMatchObject({ assignedLicenses: 7, availableLicenses: 1 });
    const listed = (await callSandbox(sandbox, 'GET', '/v1/pool/2003/licenses')).json as License[];
    expect(listed.map((l) => l.id)).not.toContain(license.id);
    const student = (await callSandbox(sandbox, 'GET', `/v1/student?id=${license.student.id}`)).json as Student;
    expect(student.courses.map((c) => c.licenseId)).not.toContain(license.id);
    const withInactive = (
      await callSandbox(sandbox, 'GET', `/v1/student?id=${license.student.id}&includeInactive=true`)
    ).json as Student;
    expect(withInactive.courses.find((c) => c.licenseId === license.id)).toMatchObject({ licenseActive: false });
    // The student is no longer enrolled, so the freed seat can go back to them.
    const reassigned = await callSandbox(sandbox, 'POST', '/v1/pool/2003/license', {
      body: { email: license.student.email },
    });
    expect(reassigned.status).toBe(200);
  });

  it('refuses an already revoked, an expired and an untransferable license', async () => {
    const license = activeIn('2001');
    await revoke(license.id);
    const twice = await revoke(license.id);
    expect([twice.status, codeOf(twice.json)]).toEqual([400, 'license_inactive']);
    const expiredId = sandbox.inspect.licenses({ poolId: '2006', includeInactive: true })[0]?.id ?? '';
    expect(codeOf((await revoke(expiredId)).json)).toBe('license_expired');
    const before = pool('2002');
    const untransferable = await revoke(activeIn('2002').id);
    expect([untransferable.status, codeOf(untransferable.json)]).toEqual([400, 'license_not_revokable']);
    expect(pool('2002')).toEqual(before);
    const unknown = await revoke('99999');
    expect([unknown.status, codeOf(unknown.json)]).toEqual([404, 'not_found']);
  });
});
