/**
 * The real process (src/main.ts in a child process) on a DATA_DIR an earlier version left bulk job
 * files in: at its first start with the database it imports them, moves them aside, and runs the
 * unfinished job on; a job file that cannot be read stops the start with a sentence naming it.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BulkJob } from '../../src/bulk/services/bulk-jobs.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { TEST_USERS } from '../support/fake-slack.js';
import { mainRig } from '../support/main-rig.js';
import { logLinesOf } from '../support/run-main.js';

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
  it('are imported at the first start and moved aside; the unfinished job runs on and sends only its rows not yet done', async () => {
    mkdirSync(bulkDir());
    writeFileSync(join(bulkDir(), `bulk-${job.id}.json`), JSON.stringify(job));
    // The journal says the first row was done before the old process stopped.
    const first = { line: 1, email: emails[0], state: 'done', outcome: 'assigned', licenseId: '777' };
    writeFileSync(join(bulkDir(), `bulk-${job.id}.rows`), `${JSON.stringify({ rows: [first] })}\n`);
    const m = start();
    await m.waitFor(/"message":"bulk job finished"/, 30_000);
    const imported = logLinesOf(m).find((l) => String(l.message).startsWith('bulk job files imported'));
    expect(imported).toMatchObject({ jobs: 1, unfinished: 1, movedTo: `${bulkDir()}.imported` });
    expect(existsSync(bulkDir())).toBe(false);
    expect(readdirSync(`${bulkDir()}.imported`).sort()).toEqual([`bulk-${job.id}.json`, `bulk-${job.id}.rows`]);
    const assigns = rig.sandbox.requests.filter((r) => r.method === 'POST' && r.url === '/v1/pool/2001/license');
    expect(assigns).toHaveLength(2);
    // The row the journal had as done was not sent again (in this sandbox it holds no license).
    const held = (email: string) =>
      rig.sandbox.inspect.licenses({ poolId: '2001' }).filter((l) => l.student.email === email).length;
    expect(emails.map(held)).toEqual([0, 1, 1]);
  }, 60_000);

  it('a job file cut short stops the start with one sentence that names it', async () => {
    mkdirSync(bulkDir());
    writeFileSync(join(bulkDir(), `bulk-${job.id}.json`), JSON.stringify(job).slice(0, 60));
    const m = start();
    expect(await m.exited).toBe(1);
    const file = join(bulkDir(), `bulk-${job.id}.json`);
    expect(m.output().stderr).toContain(`License Desk could not start: The bulk job file ${file} cannot be read (`);
    expect(m.output().stderr).toContain(`move it out of ${bulkDir()} to drop that job`);
    // Nothing was moved; the file is still where the operator will look.
    expect(readdirSync(bulkDir())).toEqual([`bulk-${job.id}.json`]);
    expect(logLinesOf(m).some((l) => l.message === 'License Desk started')).toBe(false);
  }, 60_000);
});
