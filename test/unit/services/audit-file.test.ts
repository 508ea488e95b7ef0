/**
 * The audit file: rotated at its size cap with a fixed number of files kept, read back after a
 * restart for the recent changes (across a rotation too), and only its tail read at start.
 */
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../../src/domain/audit-entry.js';
import { auditFileAt, createAuditLog, readTailLines } from '../../../src/services/audit.js';
import { createLogger } from '../../../src/slack/logger.js';

const logger = createLogger({ level: 'error', write: () => {} });
const fileIn = () => join(mkdtempSync(join(tmpdir(), 'license-desk-audit-')), 'audit.jsonl');
const entry = (i: number): AuditEntry => ({
  at: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
  actor: 'U0MGR00001',
  action: 'assign',
  outcome: 'done',
  licenseId: String(i),
  studentEmail: `student${i}@contoso.com`,
});
const lineBytes = Buffer.byteLength(`${JSON.stringify({ ...entry(10), studentEmail: 's***@contoso.com' })}\n`);

describe('audit file rotation', () => {
  it('rotates at the cap and keeps the number of files asked for, the newest entries in audit.jsonl', async () => {
    const file = fileIn();
    // Room for 10 entries per file, 3 files kept.
    const audit = createAuditLog({ logger, file, rotation: { maxBytes: lineBytes * 10, files: 3 } });
    for (let i = 10; i < 55; i += 1) await audit.record(entry(i));
    expect(existsSync(auditFileAt(file, 1))).toBe(true);
    expect(existsSync(auditFileAt(file, 2))).toBe(true);
    expect(existsSync(auditFileAt(file, 3))).toBe(false);
    expect(auditFileAt(file, 2)).toMatch(/audit\.2\.jsonl$/);
    for (const index of [0, 1, 2]) expect(statSync(auditFileAt(file, index)).size).toBeLessThanOrEqual(lineBytes * 10);
    const ids = (index: number) =>
      readFileSync(auditFileAt(file, index), 'utf8')
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as AuditEntry).licenseId);
    // 45 entries: 10 + 10 rotated out for good, then 10, 10 and the last 5.
    expect(ids(2)).toEqual(Array.from({ length: 10 }, (_, i) => String(30 + i)));
    expect(ids(1)).toEqual(Array.from({ length: 10 }, (_, i) => String(40 + i)));
    expect(ids(0)).toEqual(['50', '51', '52', '53', '54']);
  });

  it('a restart shows the recent entries, from the rotated file as well when the new one is short', async () => {
    const file = fileIn();
    const first = createAuditLog({ logger, file, rotation: { maxBytes: lineBytes * 10, files: 3 } });
    for (let i = 10; i < 23; i += 1) await first.record(entry(i));
    const restarted = createAuditLog({ logger, file, keep: 8, rotation: { maxBytes: lineBytes * 10, files: 3 } });
    const recent = await restarted.recent(8);
    expect(recent.map((e) => e.licenseId)).toEqual(['22', '21', '20', '19', '18', '17', '16', '15']);
    // Masked as written to the file.
    expect(recent[0]?.studentEmail).toBe('s***@contoso.com');
    // And the restarted log keeps appending to the same file.
    await restarted.record(entry(23));
    expect(readFileSync(file, 'utf8')).toContain('"licenseId":"23"');
  });

  it('a big file is not read whole at start: only blocks from its end', async () => {
    const file = fileIn();
    const line = `${JSON.stringify(entry(1))}\n`;
    writeFileSync(file, line.repeat(100_000));
    const size = statSync(file).size;
    const { lines, bytesRead } = await readTailLines(file, 200);
    expect(lines).toHaveLength(200);
    expect(bytesRead).toBeLessThan(size / 100);
    const audit = createAuditLog({ logger, file });
    expect(await audit.recent(5)).toHaveLength(5);
  });

  it('a cut first line, an empty file and a missing file give whole lines or none', async () => {
    const file = fileIn();
    writeFileSync(file, `${'x'.repeat(70_000)}\n{"a":1}\n{"a":2}\n`);
    expect((await readTailLines(file, 5)).lines).toEqual(['x'.repeat(70_000), '{"a":1}', '{"a":2}']);
    expect((await readTailLines(file, 1)).lines).toEqual(['{"a":2}']);
    writeFileSync(file, '');
    expect((await readTailLines(file, 5)).lines).toEqual([]);
    expect(await readTailLines(join(tmpdir(), 'no-such-dir-x', 'audit.jsonl'), 5)).toEqual({ lines: [], bytesRead: 0 });
  });
});
