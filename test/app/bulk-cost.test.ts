/**
 * The bulk check's cost does not grow with the pools of a course: a course with 120 pools and one with
 * 40 cost the dry run the same number of enrolment reads, for a short list (each e-mail looked up) and
 * for a long one (every active license walked), and the verdicts are right either way.
 */
import { describe, expect, it } from 'vitest';
import type { SandboxData } from '../../local/sandbox/types.js';
import { BulkInputId, DeskCallbackId } from '../../src/kernel/blocks/ids.js';
import { startTestApp } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { allText } from '../support/fixtures.js';

const DAY = 86_400_000;
const iso = (days: number) => new Date(Date.now() + days * DAY).toISOString().replace(/\.\d+Z$/, '+00:00');

/** Course 501: pools 6000-6119, course 502: pools 6200-6239; two licenses in every pool (320 in all). */
function manyPools(): SandboxData {
  const pool = (id: number, course: { id: string; title: string }) => ({
    id: String(id),
    course,
    start: iso(-30),
    end: iso(300),
    transferable: true,
    licenses: 10,
  });
  const big = { id: '501', title: 'Many Pools Course' };
  const small = { id: '502', title: 'Fewer Pools Course' };
  const pools = [
    ...Array.from({ length: 120 }, (_, i) => pool(6000 + i, big)),
    ...Array.from({ length: 40 }, (_, i) => pool(6200 + i, small)),
  ];
  const students = Array.from({ length: 240 }, (_, i) => ({
    id: String(8000 + i),
    name: `S ${i}`,
    email: `s${i}@contoso.com`,
  }));
  const license = (n: number, poolId: number, student: number) => ({
    id: String(90_000 + n),
    poolId: String(poolId),
    studentId: String(8000 + student),
    start: iso(-10),
    end: iso(200),
    active: true,
  });
  const licenses = [
    ...students.map((_, i) => license(i, 6000 + (i % 120), i)),
    ...Array.from({ length: 80 }, (_, i) => license(1000 + i, 6200 + (i % 40), i)),
  ];
  return {
    me: { id: '1', name: 'Org', email: 'm@contoso.com', allowedDomainsForTransferableLicenses: ['contoso.com'] },
    courses: [big, small],
    pools,
    students,
    licenses,
    progress: [],
  };
}

const ENROLMENT_READ = /^\/v1\/(student\?|licenses\?|pool\/\d+\/licenses)/;

describe('bulk check cost, independent of pools per course', () => {
  const t = appPerFile('desk-bulk-cost-', (dataDir) => startTestApp({ dataDir, sandbox: { seed: manyPools() } }));

  /** The dry run's report text and the enrolment reads it made (a 429 is refused before anything happens). */
  async function dryRun(poolId: string, emails: string[]) {
    const values: Record<string, Record<string, unknown>> = {
      [BulkInputId.pool.block]: {
        [BulkInputId.pool.action]: { type: 'external_select', selected_option: { value: poolId } },
      },
      [BulkInputId.list(1).block]: {
        [BulkInputId.list(1).action]: { type: 'plain_text_input', value: emails.join('\n') },
      },
    };
    const mark = t.slack.calls.length;
    const sent = t.sandbox.requests.length;
    const ack = await t.viewSubmission({ view: { callback_id: DeskCallbackId.bulkForm, state: { values } } });
    const body = JSON.parse(ack.body || '{}') as { response_action?: string; view?: { external_id?: string } };
    expect(body.response_action).toBe('push');
    const update = await t.slack.waitForCall(
      'views.update',
      (c) => t.slack.calls.indexOf(c) >= mark && c.args.external_id === body.view?.external_id,
      20_000,
    );
    const reads = t.sandbox.requests.slice(sent).filter((r) => r.status !== 429 && ENROLMENT_READ.test(r.url));
    return { text: allText(update.args.view), reads: reads.length };
  }

  const SHORT = ['s5@contoso.com', 'new1@contoso.com', 'new2@contoso.com'];
  const LONG = ['s5@contoso.com', 's100@contoso.com', ...Array.from({ length: 8 }, (_, i) => `new${i}@contoso.com`)];

  it('a short list: one lookup per e-mail, whether the course has 120 pools or 40', async () => {
    const big = await dryRun('6000', SHORT);
    const small = await dryRun('6200', SHORT);
    expect(big.reads).toBe(SHORT.length);
    expect(small.reads).toBe(big.reads);
    expect(big.text).toMatch(/already enrolled: 1/);
    expect(small.text).toMatch(/already enrolled: 1/);
    expect(big.text).toMatch(/ready: 2/);
  });

  it('a long list: one walk of the 320 active licenses (4 pages), whether the course has 120 pools or 40', async () => {
    const big = await dryRun('6000', LONG);
    const small = await dryRun('6200', LONG);
    expect(big.reads).toBe(4);
    expect(small.reads).toBe(big.reads);
    // s100 holds course 501 (pool 6100), not 502: the walk tells the courses apart.
    expect(big.text).toMatch(/already enrolled: 2/);
    expect(small.text).toMatch(/already enrolled: 1/);
    expect(small.text).toMatch(/ready: 9/);
  });
});
