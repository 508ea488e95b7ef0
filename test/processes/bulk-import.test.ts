/**
 * A DATA_DIR an earlier version left bulk job files in: npm run import-old-records imports them and
 * moves them aside, and the real process (src/main.ts in a child process) then runs the unfinished job
 * on; a job file that cannot be read stops the command with a sentence naming it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/bulk/db/store.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { mainRig } from '../support/main-rig.js';
import { importOldRecords } from '../support/old-records.js';

const SECRET = 'bulkimport0signing0secret0for0tests';
const BOT = TEST_BOT_TOKEN;

const rig = mainRig({ name: 'bulk-import', secret: SECRET, botToken: BOT });
const start = () => rig.start();

const bulkDir = () => join(rig.dataDir, 'bulk');
const emails = ['ann.import@contoso.com', 'ben.import@contoso.com', 'cy.import@contoso.com'];
const job: BulkJob = {
  version: 1,
  id: 'mimport-0001',
  requester: TEST_USERS.admin,
  poolId: '2001',
  courseTitle: 'Imported',
  createdAt: new Date().toISOString(),
  state: 'running',
  rows: emails.map((email, i) => ({ line: i + 1, email, state: 'pending' as const })),
  notSent: [],
};

describe('bulk job files of an earlier version', () => {
  it('are imported by npm run import-old-records and moved aside; at the next start the unfinished job runs on and sends only its rows not yet done', async () => {
    mkdirSync(bulkDir());
    writeFileSync(join(bulkDir(), `bulk-${job.id}.json`), JSON.stringify(job));
    // The journal says the first row was done before the old process stopped.
    const first = { line: 1, email: emails[0], state: 'done', outcome: 'assigned', licenseId: '777' };
    writeFileSync(join(bulkDir(), `bulk-${job.id}.rows`), `${JSON.stringify({ rows: [first] })}\n`);
    const run = await importOldRecords(rig.dataDir);
    expect(run.code).toBe(0);
    const imported = run.logs.find((l) => String(l.message).startsWith('bulk job files imported'));
    expect(imported).toMatchObject({ jobs: 1, unfinished: 1, movedTo: `${bulkDir()}.imported` });
    expect(existsSync(bulkDir())).toBe(false);
    expect(readdirSync(`${bulkDir()}.imported`).sort()).toEqual([`bulk-${job.id}.json`, `bulk-${job.id}.rows`]);
    // The next start takes the unfinished job on.
    const m = start();
    await m.waitFor(/"message":"bulk job finished"/, 30_000);
    const assigns = rig.sandbox.requests.filter((r) => r.method === 'POST' && r.url === '/v1/pool/2001/license');
    expect(assigns).toHaveLength(2);
    // The row the journal had as done was not sent again (in this sandbox it holds no license).
    const held = (email: string) =>
      rig.sandbox.inspect.licenses({ poolId: '2001' }).filter((l) => l.student.email === email).length;
    expect(emails.map(held)).toEqual([0, 1, 1]);
  }, 60_000);

  it('a job file cut short stops the command with one sentence that names it', async () => {
    mkdirSync(bulkDir());
    writeFileSync(join(bulkDir(), `bulk-${job.id}.json`), JSON.stringify(job).slice(0, 60));
    const run = await importOldRecords(rig.dataDir);
    expect(run.code).toBe(1);
    const file = join(bulkDir(), `bulk-${job.id}.json`);
    expect(run.stderr).toContain(`Not imported: The bulk job file ${file} cannot be read (`);
    expect(run.stderr).toContain(`move it out of ${bulkDir()} to drop that job`);
    // Nothing was moved; the file is still where the operator will look.
    expect(readdirSync(bulkDir())).toEqual([`bulk-${job.id}.json`]);
  }, 60_000);
});
