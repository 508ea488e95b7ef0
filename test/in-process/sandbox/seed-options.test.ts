import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../local/sandbox/index.js';
import { callSandbox } from '../../support/sandbox.js';

const NOW = new Date('2025-03-10T12:00:00Z');

describe('seed options', () => {
  it("'empty' starts with nothing but me", async () => {
    const empty = await startSandbox({ port: 0, seed: 'empty', rateLimit: false });
    try {
      expect((await callSandbox(empty, 'GET', '/v1/pools')).json).toEqual([]);
      expect((await callSandbox(empty, 'GET', '/v1/licenses')).json).toEqual([]);
      expect((await callSandbox(empty, 'GET', '/v1/me')).json).toMatchObject({ pools: 0, licenses: 0 });
    } finally {
      await empty.close();
    }
  });

  it('takes custom data and a smaller maximum page size', async () => {
    const custom = await startSandbox({
      port: 0,
      now: () => NOW,
      maxPageSize: 2,
      seed: {
        me: { id: '1', name: 'Acme', email: 'it@acme.test', allowedDomainsForTransferableLicenses: [] },
        courses: [{ id: '9', title: 'Custom Course' }],
        pools: [
          {
            id: '1',
            course: { id: '9', title: 'Custom Course' },
            start: '2025-01-01T00:00:00+01:00',
            end: '2025-12-31T23:59:59Z',
            transferable: true,
            licenses: 3,
          },
        ],
        students: [{ id: '1', name: 'Ada', email: 'ada@anywhere.test' }],
        licenses: [
          {
            id: '1',
            poolId: '1',
            studentId: '1',
            start: '2025-01-02T00:00:00Z',
            end: '2025-06-30T23:59:59Z',
            active: true,
          },
        ],
        progress: [{ studentId: '1', courseId: '9', progress: 42, completed: null }],
      },
    });
    try {
      expect((await callSandbox(custom, 'GET', '/v1/pool/1')).json).toMatchObject({
        start: '2024-12-31T23:00:00+00:00',
        assignedLicenses: 1,
        availableLicenses: 2,
      });
      expect((await callSandbox(custom, 'GET', '/v1/licenses?pageSize=3')).status).toBe(400);
      // An empty allowed-domains list restricts nothing.
      const assign = await callSandbox(custom, 'POST', '/v1/pool/1/license', { body: { email: 'bob@elsewhere.test' } });
      expect(assign.status).toBe(200);
      expect(custom.inspect.student({ id: '1' })?.courses[0]?.progress).toBe(42);
    } finally {
      await custom.close();
    }
  });
});
