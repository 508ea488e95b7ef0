/**
 * The real main.ts over a DATA_DIR an earlier version wrote: requests.json and waitlist.json are
 * imported into the database once and moved aside, with a log line; a file that cannot be read stops
 * the start with one sentence that names it and says what to do. A deployment's DATA_DIR (a Slack
 * workspace configured): the local demo keeps its records in a folder of its own and never reads these.
 */
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { mainRig } from '../support/main-rig.js';
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

describe('the files of an earlier version at start', () => {
  it('a truncated requests.json stops the start with a sentence naming the file', async () => {
    const dir = await dataDir({ 'requests.json': requestsFile.slice(0, 80) });
    const main = rig.start();
    expect(await main.exited).toBe(1);
    const { stderr } = main.output();
    expect(stderr).toContain(`License Desk could not start: ${join(dir, 'requests.json')} is not complete JSON`);
    expect(stderr).toContain('restore it from a backup');
    expect(existsSync(join(dir, 'requests.json'))).toBe(true);
  });

  it('a null entry in a valid waitlist.json stops the start too; nothing is imported', async () => {
    const dir = await dataDir({ 'requests.json': requestsFile, 'waitlist.json': '{"2003": [null]}' });
    const main = rig.start();
    expect(await main.exited).toBe(1);
    expect(main.output().stderr).toContain(`${join(dir, 'waitlist.json')} holds an entry that is not complete`);
    expect(readdirSync(dir).filter((f) => f.includes('imported'))).toEqual([]);
  });

  it('good files are imported once and moved aside, with a log line', async () => {
    const entry = { requestId: 'r2', poolId: '2003', requester: 'U0NOROLE01', since: '2026-11-23T08:00:00.000Z' };
    const dir = await dataDir({ 'requests.json': requestsFile, 'waitlist.json': JSON.stringify({ '2003': [entry] }) });
    const main = rig.start({ LOG_LEVEL: 'info' });
    try {
      const [line] = await main.waitFor(/course requests and the waitlist imported into the database[^\n]*/, 30_000);
      expect(line).toContain('"requests":2');
      expect(line).toContain('"waitlisted":1');
      expect(existsSync(join(dir, 'requests.json'))).toBe(false);
      expect(readdirSync(dir).filter((f) => f.includes('.imported-'))).toHaveLength(2);
    } finally {
      main.child.kill('SIGTERM');
      await main.exited;
    }
  });
});
