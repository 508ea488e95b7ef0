/**
 * /licenses export end to end: the CSV arrives as a file in the requester's DM through the
 * three files.uploadV2 steps; its content matches the sandbox, is RFC 4180, and keeps formulas inert.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_HEADER } from '../../src/export/services/export.js';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { parseCsv } from '../support/csv.js';
import { isFinalReply } from '../support/fake-slack.js';
import { callSandbox } from '../support/sandbox.js';

const t = appPerFile('export-', () => startTestApp());
beforeAll(async () => {
  // A student whose name a spreadsheet would run as a formula.
  const r = await callSandbox(t.sandbox, 'POST', '/v1/pool/2007/license', {
    body: { email: 'mallory@contoso.com', name: '=HYPERLINK("http://evil.example","click")' },
  });
  expect(r.status).toBe(200);
});

async function exportAs(text: string, userId: string) {
  const before = t.slack.uploads.length;
  const r = await t.command(text, { userId });
  expect(r.status).toBe(200);
  const post = await r.waitForResponse(isFinalReply, 15_000);
  return { post, uploads: t.slack.uploads.slice(before) };
}

describe('/licenses export', () => {
  it('sends every license, inactive included, as a CSV file in a DM, with progress from the students', async () => {
    const { post, uploads } = await exportAs('export', TEST_USERS.viewer);
    expect(String(post.body.text)).toContain('Sent:');
    expect(uploads).toHaveLength(1);
    const file = uploads[0];
    expect(file?.channelId).toMatch(/^D/);
    expect(file?.filename).toMatch(/^licenses-\d{4}-\d{2}-\d{2}\.csv$/);
    const methods = t.slack.calls.map((c) => c.method);
    expect(methods).toEqual(
      expect.arrayContaining(['conversations.open', 'files.getUploadURLExternal', 'files.completeUploadExternal']),
    );
    const rows = parseCsv(file?.content ?? '');
    expect(rows[0]).toEqual([...EXPORT_HEADER]);
    // The DM names every column the file has, in its order: all of them, not ten of eleven.
    expect(file?.initialComment).toContain(`Columns: ${rows[0]?.join(', ')}.`);
    const all = t.sandbox.inspect.licenses({ includeInactive: true });
    expect(rows.length - 1).toBe(all.length);
    const byLicense = new Map(rows.slice(1).map((r) => [r[4], r]));
    for (const l of all) {
      const row = byLicense.get(l.id);
      expect(row?.[1]).toBe(l.student.email);
      expect(row?.[3]).toBe(l.poolId);
    }
    // Progress comes from GET /v1/students: compare one student's course with the sandbox.
    const student = t.sandbox.inspect.student({ email: 'alberto.rossi@contoso.com' });
    const course = student?.courses.find((c) => c.poolId === '2001');
    expect(byLicense.get(course?.licenseId)?.[8]).toBe(String(course?.progress));
    // Escaping per RFC 4180 survived the round trip, and the formula stays text.
    expect(rows.some((r) => r[0] === '<!channel> & Co')).toBe(true);
    expect(rows.some((r) => r[0] === `'=HYPERLINK("http://evil.example","click")`)).toBe(true);
    expect(file?.content).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    expect(rows.slice(1).every((r) => ['active', 'ending-soon', 'expired', 'inactive'].includes(r[7] ?? ''))).toBe(
      true,
    );
  });

  it('export <poolId>: only that pool, and a clear sentence for a pool that does not exist', async () => {
    const { uploads } = await exportAs('export 2003', TEST_USERS.admin);
    const rows = parseCsv(uploads[0]?.content ?? '');
    expect(rows.length - 1).toBe(t.sandbox.inspect.licenses({ includeInactive: true, poolId: '2003' }).length);
    expect(rows.slice(1).every((r) => r[3] === '2003')).toBe(true);
    expect(uploads[0]?.filename).toMatch(/^licenses-pool-2003-/);
    const missing = await exportAs('export 9999', TEST_USERS.admin);
    expect(String(missing.post.body.text)).toContain('no pool with that id');
    expect(missing.uploads).toEqual([]);
  });

  it('nobody gets the refusal and no file', async () => {
    const { post, uploads } = await exportAs('export', TEST_USERS.nobody);
    expect(String(post.body.text)).toContain("don't have access");
    expect(uploads).toEqual([]);
  });
});
