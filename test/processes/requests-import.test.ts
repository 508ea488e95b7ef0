/**
 * `npm run import-old-records` over a DATA_DIR an earlier version wrote: requests.json and
 * waitlist.json are imported into the database once and moved aside, with a log line; a file that
 * cannot be read stops the command with one sentence that names it and says what to do.
 */
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { mainRig } from '../support/main-rig.js';
import { importOldRecords } from '../support/old-records.js';
import { sampleRequest } from '../support/requests.js';

const rig = mainRig({
  name: 'requests-import',
  secret: 'requestsimport0signing0secret0test',
  botToken: TEST_BOT_TOKEN,
});

async function dataDir(files: Record<string, string>): Promise<string> {
  const dir = rig.dataDir;
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

const requestsFile = JSON.stringify({
  version: 1,
  requests: { r1: sampleRequest('r1'), r2: { ...sampleRequest('r2'), status: 'waitlisted', poolId: '2003' } },
});

describe('requests.json and waitlist.json of an earlier version, by npm run import-old-records', () => {
  it('a truncated requests.json stops the command with a sentence naming the file', async () => {
    const dir = await dataDir({ 'requests.json': requestsFile.slice(0, 80) });
    const run = await importOldRecords(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`Not imported: ${join(dir, 'requests.json')} is not complete JSON`);
    expect(run.stderr).toContain('restore it from a backup');
    expect(existsSync(join(dir, 'requests.json'))).toBe(true);
  }, 60_000);

  it('a null entry in a valid waitlist.json stops it too; nothing is imported', async () => {
    const dir = await dataDir({ 'requests.json': requestsFile, 'waitlist.json': '{"2003": [null]}' });
    const run = await importOldRecords(dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(dir, 'waitlist.json')} holds an entry that is not complete`);
    expect(readdirSync(dir).filter((f) => f.includes('imported'))).toEqual([]);
  }, 60_000);

  it('good files are imported once and moved aside, with a log line', async () => {
    const entry = { requestId: 'r2', poolId: '2003', requester: 'U0NOROLE01', since: '2026-11-23T08:00:00.000Z' };
    const dir = await dataDir({ 'requests.json': requestsFile, 'waitlist.json': JSON.stringify({ '2003': [entry] }) });
    const run = await importOldRecords(dir);
    expect(run.code).toBe(0);
    const line = run.logs.find((l) =>
      String(l.message).startsWith('course requests and the waitlist imported into the database'),
    );
    expect(line).toMatchObject({ requests: 2, waitlisted: 1 });
    expect(existsSync(join(dir, 'requests.json'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.includes('.imported-'))).toHaveLength(2);
  }, 60_000);
});
