/**
 * A write whose intent cannot be recorded (the database does not answer) is never sent: the admin is
 * told nothing was sent and the audit says failed. Engine-free (no database at all), so not in the
 * store suite of settle-writes.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import { revoke } from '../../../src/changes/services/revoke.js';
import { createLicensingClient } from '../../../src/kernel/licensing/index.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { createAuditLog } from '../../../src/kernel/services/audit.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet } as unknown as Logger;
const ADMIN = 'U0ADMIN001';
const now = () => new Date();

describe('a write whose intent cannot be recorded', () => {
  it('is not sent: the admin is told nothing was sent, and it is audited as failed', async () => {
    const sandbox = await startSandbox({ port: 0, rateLimit: false });
    const licensing = createLicensingClient({ baseUrl: sandbox.url, token: sandbox.adminToken });
    try {
      const license = sandbox.inspect.licenses({ poolId: '2001' })[0];
      if (!license) throw new Error('no active license in 2001');
      const audit = createAuditLog({ logger: quiet });
      const down = {
        open: () => Promise.reject(new Error('the database does not answer')),
        close: () => Promise.resolve(),
      };
      const outcome = await revoke({ licensing, audit, now, writes: down }, { actor: ADMIN, licenseId: license.id });
      expect(outcome).toMatchObject({
        kind: 'written',
        write: { kind: 'failed', nothingChanged: true, sentence: expect.stringContaining('nothing was sent') },
      });
      expect(sandbox.requests.filter((r) => r.method === 'DELETE')).toEqual([]);
      expect(sandbox.inspect.license(license.id)?.active).toBe(true);
      expect((await audit.recent(1))[0]).toMatchObject({ action: 'revoke', outcome: 'failed' });
    } finally {
      await licensing.close();
      await sandbox.close();
    }
  });
});
