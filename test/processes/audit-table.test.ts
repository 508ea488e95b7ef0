/**
 * The audit trail is a table of the records, end to end with the real main process (src/main.ts in a
 * child process, SQLite in its DATA_DIR): the audit files of an older version are imported by npm run
 * import-old-records and moved aside, AUDIT_RETENTION_DAYS deletes what is too old at start, a change
 * made before a restart is in App Home's "Recent changes" after it (read from the table, newest
 * first), and an audit file with a broken line stops the import with a sentence naming the file and
 * the line.
 */
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallbackId } from '../../src/kernel/blocks/ids.js';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { extendState, viewOf } from '../support/change-flow.js';
import { type SlackCall, TEST_USERS } from '../support/fake-slack.js';
import { allText } from '../support/fixtures.js';
import { mainRig } from '../support/main-rig.js';
import { importOldRecords } from '../support/old-records.js';
import { auditTableIn, eventsUrlOf, logLinesOf, type MainProcess } from '../support/run-main.js';
import { appHomeOpenedBody, commandBody, slackHeaders, viewSubmissionBody } from '../support/slack-signing.js';

const SECRET = 'audit0table0signing0secret0tests';
/** The project's one fake bot token for tests. */
const BOT = TEST_BOT_TOKEN;
const DAY = 86_400_000;
const ADMIN = TEST_USERS.admin;

let eventsUrl = '';
let seq = 0;

const rig = mainRig({ name: 'audit-table', secret: SECRET, botToken: BOT });

const startMain = (extra: Record<string, string> = {}) => rig.start(extra);

async function post(body: string, contentType?: string): Promise<number> {
  const headers = { ...slackHeaders(SECRET, body), ...(contentType ? { 'content-type': contentType } : {}) };
  return (await fetch(eventsUrl, { method: 'POST', headers, body })).status;
}

function command(text: string) {
  return post(
    commandBody({
      team_id: 'T0ACME0001',
      channel_id: 'C0LICOPS01',
      user_id: ADMIN,
      user_name: 'dana.lee',
      command: '/licenses',
      text,
      api_app_id: 'A0LICBOT01',
      response_url: rig.slack.responseUrl(`r${++seq}`),
      trigger_id: `${Date.now()}.${++seq}.trigger`,
    }),
  );
}

/** Moves the end of `licenseId` through the modal, as an admin does; resolves once it is audited. */
async function extend(licenseId: string, day: string): Promise<void> {
  const from = rig.slack.calls.length;
  await command(`extend ${licenseId}`);
  const after = (c: SlackCall) => rig.slack.calls.indexOf(c) >= from;
  const form = await rig.slack.waitForCall(
    'views.update',
    (c) => after(c) && viewOf(c).callback_id === CallbackId.extendForm,
    10_000,
  );
  await post(viewSubmissionBody(viewOf(form), extendState({ date: day }), `${Date.now()}.${++seq}.trigger`));
  await rig.main?.waitFor(new RegExp(`"message":"audit".*"licenseId":"${licenseId}"`), 15_000);
}

/** Opens App Home for the admin and returns the text of the view once it shows the pools. */
async function homeText(): Promise<string> {
  const before = rig.slack.calls.length;
  const status = await post(appHomeOpenedBody(ADMIN, `Ev0AUDIT${++seq}`), 'application/json');
  expect(status).toBe(200);
  const call = await rig.slack.waitForCall(
    'views.publish',
    (c) =>
      rig.slack.calls.indexOf(c) >= before &&
      c.args.user_id === ADMIN &&
      allText(c.args.view).includes('Recent changes') &&
      !allText(c.args.view).includes('Refreshing'),
    15_000,
  );
  return allText(call.args.view);
}

const jsonl = (...entries: unknown[]) => `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const old = (licenseId: string, at: string) => ({
  at,
  actor: 'U0OLDADM01',
  action: 'revoke',
  outcome: 'done',
  licenseId,
  studentName: `Student ${licenseId}`,
  courseTitle: 'Mastering DAX',
});

describe('the audit table across a restart', () => {
  it("imports the old files once (npm run import-old-records), keeps to AUDIT_RETENTION_DAYS, and App Home's recent changes come from the table after a restart", async () => {
    writeFileSync(join(rig.dataDir, 'audit.1.jsonl'), jsonl(old('3001', ago(400)), old('3002', ago(3))));
    writeFileSync(join(rig.dataDir, 'audit.jsonl'), jsonl(old('3003', ago(2))));
    const run = await importOldRecords(rig.dataDir);
    expect(run.code).toBe(0);
    expect(run.logs.find((l) => String(l.message).startsWith('audit: the audit files were imported'))).toMatchObject({
      entries: 3,
      files: [
        { file: expect.stringMatching(/audit\.1\.jsonl$/), entries: 2 },
        { file: expect.stringMatching(/audit\.jsonl$/), entries: 1 },
      ],
    });
    startMain({ AUDIT_RETENTION_DAYS: '30' });
    eventsUrl = await eventsUrlOf(rig.main as MainProcess);
    const lines = logLinesOf(rig.main);
    expect(lines.find((l) => String(l.message).includes('older than AUDIT_RETENTION_DAYS'))).toMatchObject({
      deleted: 1,
      days: 30,
    });
    expect(existsSync(join(rig.dataDir, 'audit.jsonl'))).toBe(false);
    expect(readdirSync(rig.dataDir).filter((n) => n.includes('.imported-'))).toHaveLength(2);

    const day = new Date(Date.now() + 40 * DAY).toISOString().slice(0, 10);
    await extend('4002', day);
    rig.main?.child.kill('SIGTERM');
    expect(await rig.main?.exited).toBe(0);
    expect(auditTableIn(rig.dataDir).map((e) => e.licenseId)).toEqual(['3002', '3003', '4002']);

    // A new process on the same DATA_DIR: nothing left to import, the table answers App Home.
    startMain({ AUDIT_RETENTION_DAYS: '30' });
    eventsUrl = await eventsUrlOf(rig.main as MainProcess);
    expect(logLinesOf(rig.main).some((l) => String(l.message).includes('import-old-records'))).toBe(false);
    const text = await homeText();
    const at = (s: string) => text.indexOf(s);
    expect(at(`<@${ADMIN}> changed the end date of license \`4002\``)).toBeGreaterThan(-1);
    expect(at('<@U0OLDADM01> revoked license `3003`')).toBeGreaterThan(at('license `4002`'));
    expect(at('<@U0OLDADM01> revoked license `3002`')).toBeGreaterThan(at('license `3003`'));
    expect(text).not.toContain('3001');
  }, 60_000);

  it('an audit file with a line that is not an entry stops the import with a sentence naming it, and keeps it', async () => {
    const file = join(rig.dataDir, 'audit.jsonl');
    writeFileSync(file, `${JSON.stringify(old('3001', ago(1)))}\n{"at":"2026-11-2\n`);
    const run = await importOldRecords(rig.dataDir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(
      `Not imported: The audit file ${file} cannot be imported into the database: line 2 is not an entry (it is not valid JSON); nothing was imported`,
    );
    expect(existsSync(file)).toBe(true);
    expect(auditTableIn(rig.dataDir)).toEqual([]);
  }, 30_000);
});
