/**
 * The change use cases without Slack: the licensing client against the sandbox, an audit log in
 * memory. What a Slack click, the console or a Workflow Builder step gets back is a typed outcome, the
 * change is made (or not sent) in the licensing service, and the audit entry is recorded by the use
 * case itself.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import type { RunningSandbox } from '../../../local/sandbox/types.js';
import type { ChangeContext } from '../../../src/changes/services/change-context.js';
import { changeLicenseEndDate } from '../../../src/changes/services/change-end-date.js';
import { revoke } from '../../../src/changes/services/revoke.js';
import type { License } from '../../../src/kernel/domain/types.js';
import { createLicensingClient } from '../../../src/kernel/licensing/index.js';
import type { LicensingClient, Logger } from '../../../src/kernel/licensing/types.js';
import { type AuditLog, createAuditLog } from '../../../src/kernel/services/audit.js';

const NOW = new Date('2025-03-10T12:00:00Z');
const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet } as unknown as Logger;

let sandbox: RunningSandbox;
let licensing: LicensingClient;
let audit: AuditLog;
let ctx: ChangeContext;

beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, now: () => NOW, rateLimit: false });
  licensing = createLicensingClient({
    baseUrl: sandbox.url,
    token: sandbox.adminToken,
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10 },
  });
  audit = createAuditLog({ logger: quiet });
  ctx = { licensing, audit, now: () => NOW };
});

afterEach(async () => {
  await licensing.close();
  await sandbox.close();
});

const activeIn = (poolId: string): License => {
  const found = sandbox.inspect.licenses({ poolId })[0];
  if (!found) throw new Error(`no active license in ${poolId}`);
  return found;
};
const deletes = () => sandbox.requests.filter((r) => r.method === 'DELETE').length;

describe('revoke(ctx, { actor, licenseId })', () => {
  it('ends the license in the service and records who did it, with the student', async () => {
    const license = activeIn('2001');
    const outcome = await revoke(ctx, { actor: 'U0ADMIN001', licenseId: license.id });
    expect(outcome).toMatchObject({ kind: 'written', write: { kind: 'done' }, license: { id: license.id } });
    expect(sandbox.inspect.license(license.id)?.active).toBe(false);
    expect(await audit.recent(1)).toEqual([
      expect.objectContaining({
        actor: 'U0ADMIN001',
        action: 'revoke',
        outcome: 'done',
        licenseId: license.id,
        studentEmail: license.student.email,
      }),
    ]);
  });

  it('a license already ended: refused on the fresh read, no DELETE sent, the refusal audited', async () => {
    const license = activeIn('2001');
    await revoke(ctx, { actor: 'U0ADMIN001', licenseId: license.id });
    sandbox.clearRequests();
    const again = await revoke(ctx, { actor: 'U0ADMIN001', licenseId: license.id });
    expect(again).toMatchObject({ kind: 'blocked', blocker: 'inactive' });
    expect(deletes()).toBe(0);
    expect((await audit.recent(1))[0]).toMatchObject({
      outcome: 'refused',
      detail: expect.stringContaining('no DELETE'),
    });
  });

  it('the answer is lost after the DELETE was applied: read back, done, said so in the audit', async () => {
    const license = activeIn('2001');
    sandbox.addFault({ kind: '500', method: 'DELETE', phase: 'after', times: 1 });
    const outcome = await revoke(ctx, { actor: 'U0ADMIN001', licenseId: license.id });
    expect(outcome).toMatchObject({ kind: 'written', write: { kind: 'done', checked: true } });
    expect(deletes()).toBe(1);
    expect((await audit.recent(1))[0]).toMatchObject({
      outcome: 'done',
      detail: 'answer lost; confirmed by reading back',
    });
  });

  it('no such license: nothing sent, the failure audited in a plain sentence', async () => {
    const outcome = await revoke(ctx, { actor: 'U0ADMIN001', licenseId: '999999' });
    expect(outcome.kind).toBe('unread');
    expect(deletes()).toBe(0);
    expect((await audit.recent(1))[0]).toMatchObject({ outcome: 'failed', licenseId: '999999' });
  });
});

describe('changeLicenseEndDate(ctx, { actor, licenseId, endDate })', () => {
  it('moves the end within the pool, and refuses a day after the pool ends without a PATCH', async () => {
    const license = activeIn('2001');
    const moved = await changeLicenseEndDate(ctx, {
      actor: 'U0ADMIN001',
      licenseId: license.id,
      endDate: '2025-05-31',
    });
    expect(moved).toMatchObject({ kind: 'written', past: false, write: { kind: 'done' } });
    expect(sandbox.inspect.license(license.id)?.end).toBe('2025-05-31T23:59:59+00:00');

    sandbox.clearRequests();
    const poolEnd = sandbox.inspect.pool('2001')?.end ?? '';
    const after = new Date(Date.parse(poolEnd) + 86_400_000).toISOString().slice(0, 10);
    const refused = await changeLicenseEndDate(ctx, { actor: 'U0ADMIN001', licenseId: license.id, endDate: after });
    expect(refused).toMatchObject({ kind: 'refused', refusal: { kind: 'after-pool-end' } });
    expect(sandbox.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    expect((await audit.recent(1))[0]).toMatchObject({ action: 'extend', outcome: 'refused' });
  });
});
