/**
 * The files an earlier version kept in DATA_DIR (docs/records.md, "Files of an earlier version"):
 * `npm run import-old-records` moves them into the records once and renames each aside, and refuses
 * a file it cannot read with a sentence naming it; a start never imports them: it names those it
 * finds in one log line, with the command, and starts.
 */
import { existsSync, mkdirSync, readdirSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/bulk/domain/bulk-job.js';
import type { WaitlistLines } from '../../src/requests/domain/waitlist.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { mainRig } from '../support/main-rig.js';
import { importOldRecords } from '../support/old-records.js';
import { sampleRequest } from '../support/requests.js';
import { auditTableIn, logLinesOf } from '../support/run-main.js';

const rig = mainRig({ name: 'old-records', secret: 'oldrecords0signing0secret0for0tests', botToken: TEST_BOT_TOKEN });

const request = sampleRequest('r0ld0file001');
const waiting = { ...sampleRequest('r0ld0file002'), status: 'waitlisted' as const, poolId: '2003' };
const lines: WaitlistLines = {
  '2003': [{ requestId: waiting.id, poolId: '2003', requester: waiting.requester, since: '2026-11-20T09:00:00.000Z' }],
};
const job: BulkJob = {
  version: 1,
  id: 'j0ld0file001',
  requester: TEST_USERS.admin,
  poolId: '2001',
  courseTitle: 'Power BI Fundamentals',
  createdAt: '2026-11-20T09:00:00.000Z',
  state: 'done',
  rows: [],
  notSent: [],
};
const entry = {
  at: '2026-11-20T09:00:00.000Z',
  actor: 'U0OLDADM01',
  action: 'revoke',
  outcome: 'done',
  licenseId: '3001',
};
const OLD_FILES: Record<string, string> = {
  'audit.jsonl': `${JSON.stringify(entry)}\n`,
  'requests.json': JSON.stringify({ version: 1, requests: { [request.id]: request, [waiting.id]: waiting } }),
  'waitlist.json': JSON.stringify(lines),
  [join('bulk', `bulk-${job.id}.json`)]: JSON.stringify(job),
  'alerts.json': JSON.stringify({ version: 1, sent: { 'pool-full:1': '2026-11-20T09:00:00.000Z' }, acknowledged: {} }),
};

function writeOldFiles(dataDir: string, files: Record<string, string> = OLD_FILES): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dataDir, name, '..'), { recursive: true });
    writeFileSync(join(dataDir, name), text);
  }
}

describe('npm run import-old-records', () => {
  it('imports every file of an earlier version once, renames each aside, and finds nothing the second time', async () => {
    writeOldFiles(rig.dataDir);
    const run = await importOldRecords(rig.dataDir);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(
      '1 audit entries, 2 course requests (1 on the waitlist), 1 bulk jobs, the alert memory.',
    );
    const names = readdirSync(rig.dataDir);
    for (const name of ['audit.jsonl', 'requests.json', 'waitlist.json', 'alerts.json', 'bulk'])
      expect(names, name).not.toContain(name);
    expect(names.filter((n) => n.includes('.imported'))).toHaveLength(5);
    expect(auditTableIn(rig.dataDir).map((e) => e.licenseId)).toEqual(['3001']);

    const again = await importOldRecords(rig.dataDir);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing to import');
  }, 60_000);

  const damaged: [string, string][] = [
    ['requests.json', OLD_FILES['requests.json'] ?? ''],
    ['waitlist.json', OLD_FILES['waitlist.json'] ?? ''],
    [join('bulk', `bulk-${job.id}.json`), JSON.stringify({ ...job, state: 'running' })],
  ];
  for (const [name, content] of damaged) {
    it(`${name} truncated: the command stops with a sentence naming it, and leaves it as it is`, async () => {
      const file = join(rig.dataDir, name);
      writeOldFiles(rig.dataDir, { [name]: content });
      truncateSync(file, Math.floor(content.length / 2));
      const run = await importOldRecords(rig.dataDir);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Not imported: `);
      expect(run.stderr).toContain(file);
      // Nothing was moved aside or replaced: the operator still has the file to restore or repair.
      expect(statSync(file).size).toBe(Math.floor(content.length / 2));
      expect(readdirSync(join(file, '..')).filter((f) => f.includes('imported'))).toEqual([]);
    }, 60_000);
  }
});

describe('a start over files of an earlier version', () => {
  it('names them in one log line with the command and starts without them; after the command it names none', async () => {
    writeOldFiles(rig.dataDir);
    const first = rig.start({ LOG_LEVEL: 'info' });
    await first.waitFor(/"message":"License Desk started"/, 30_000);
    const hints = logLinesOf(first).filter((l) => String(l.message).includes('npm run import-old-records'));
    expect(hints).toHaveLength(1);
    expect(hints[0]).toMatchObject({ level: 'warn' });
    expect(hints[0]?.files).toEqual(
      expect.arrayContaining(['audit.jsonl', 'requests.json', 'waitlist.json', join('bulk', `bulk-${job.id}.json`)]),
    );
    // Nothing was imported by the start.
    expect(existsSync(join(rig.dataDir, 'requests.json'))).toBe(true);
    expect(auditTableIn(rig.dataDir)).toEqual([]);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    expect((await importOldRecords(rig.dataDir)).code).toBe(0);
    const second = rig.start({ LOG_LEVEL: 'info' });
    await second.waitFor(/"message":"License Desk started"/, 30_000);
    expect(logLinesOf(second).filter((l) => String(l.message).includes('import-old-records'))).toEqual([]);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
  }, 90_000);
});
