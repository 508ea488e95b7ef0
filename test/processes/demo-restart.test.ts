/**
 * A restart of the local demo is consistent: the in-process sandbox is seeded afresh at each start, and
 * so are the demo's records, so that no history, waitlist or message of the last run speaks of a
 * license the new sandbox does not have. The real process (dist/main.js, as npm start runs it) started
 * twice on one DATA_DIR; requests signed with the demo's published secret, as the console and
 * `npm run try` sign them; answers read from the response_url posts and the local Slack double.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SIGNING_SECRET, DEMO_USERS } from '../../local/slack/demo.js';
import { CallbackId } from '../../src/kernel/blocks/ids.js';
import { assignState } from '../support/change-flow.js';
import { type MainProcess, runMain } from '../support/run-main.js';
import { commandBody, slackHeaders, viewSubmissionBody } from '../support/slack-signing.js';
import { until } from '../support/until.js';

const LISTENING = /app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/;
const STUDENT = { email: 'nova.restart@contoso.com', name: 'Nova Restartova' };
const ADMIN = { id: DEMO_USERS.admin, name: 'demo.admin' };

type Call = { method: string; args: Record<string, unknown>; result?: Record<string, unknown> };

let dataDir: string;
let main: MainProcess | undefined;
let collector: Server;
let collectorUrl: string;
/** What the app posted to response_url, as text. */
const posted: string[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'license-desk-demo-restart-'));
  collector = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      posted.push(body);
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
});
afterEach(async () => {
  main?.child.kill('SIGKILL');
  await main?.exited;
  main = undefined;
});
afterAll(async () => {
  await new Promise((resolve) => collector.close(resolve));
  rmSync(dataDir, { recursive: true, force: true });
});

/** The demo on `dataDir`: its events URL and its local Slack double's URL. */
async function startDemo(): Promise<{ events: string; localSlack: string }> {
  main = runMain({ PORT: '0', DATA_DIR: dataDir });
  const [, port] = await main.waitFor(LISTENING, 30_000);
  const health = (await (await fetch(`http://127.0.0.1:${port}/healthz`)).json()) as { localSlack: string };
  return { events: `http://127.0.0.1:${port}/slack/events`, localSlack: health.localSlack };
}

async function post(events: string, body: string): Promise<void> {
  const res = await fetch(events, { method: 'POST', headers: slackHeaders(DEMO_SIGNING_SECRET, body), body });
  expect(res.status).toBe(200);
}

/** The signed body of `/licenses <text>` typed by the demo's admin, answered at `path` of the collector. */
const adminCommandBody = (text: string, path: string, trigger: string) =>
  commandBody({
    team_id: 'T0LOCAL001',
    channel_id: 'C0LOCAL001',
    user_id: ADMIN.id,
    user_name: ADMIN.name,
    command: '/licenses',
    text,
    response_url: `${collectorUrl}${path}`,
    trigger_id: `1.${Date.now()}.${trigger}`,
  });

let commands = 0;
/** `/licenses <text>` by the demo's admin; resolves with its response_url posts once the final answer came. */
async function command(events: string, text: string): Promise<string> {
  // A read first says it is working on it; its answer then replaces that message.
  const done = (all: string) => all.includes('"replace_original":true');
  const path = `/c${++commands}`;
  const from = posted.length;
  await post(events, adminCommandBody(text, path, String(commands)));
  let all = '';
  await until(
    `an answer to /licenses ${text}`,
    async () => {
      all = posted.slice(from).join('\n');
      return done(all);
    },
    30_000,
    100,
  );
  return all;
}

async function callsOf(localSlack: string): Promise<Call[]> {
  return ((await (await fetch(`${localSlack}/calls?after=0`)).json()) as { calls: Call[] }).calls;
}

describe('the local demo started twice on one DATA_DIR', () => {
  it('starts afresh each time: nothing of the last run speaks of a license the new sandbox does not have', async () => {
    // Run 1: a license assigned through the form, in the sandbox and in the records' history.
    const one = await startDemo();
    await post(one.events, adminCommandBody('assign 2001', '/assign', 'assign'));
    let form: Call | undefined;
    await until(
      'the assign form',
      async () => {
        const all = await callsOf(one.localSlack);
        // The form opens as "loading…", then is filled in (views.update) once the pools are read.
        form = all.find(
          (c) =>
            c.method === 'views.update' &&
            (c.args.view as { callback_id?: string }).callback_id === CallbackId.assignForm,
        );
        return form !== undefined;
      },
      30_000,
      100,
    );
    const shown = form?.args.view as { callback_id: string; private_metadata?: string };
    const view = { ...shown, id: String(form?.args.view_id) };
    await post(
      one.events,
      viewSubmissionBody(
        view,
        assignState({ pool: '2001', email: STUDENT.email, name: STUDENT.name }),
        `1.${Date.now()}.submit`,
        ADMIN,
      ),
    );
    // The audit trail names the student once the assignment is done (it goes on after the form closes).
    let history1 = '';
    await until(
      'the assignment in the audit trail',
      async () => {
        history1 = await command(one.events, `history ${STUDENT.email}`);
        return history1.includes(STUDENT.name);
      },
      30_000,
      500,
    );
    const licenseId = /license `?(\d+)`?/i.exec(history1)?.[1];
    main?.child.kill('SIGTERM');
    await main?.exited;
    main = undefined;

    // Run 2, on the same DATA_DIR: the sandbox is the seeded one again, and so are the records.
    const two = await startDemo();
    const history2 = await command(two.events, `history ${STUDENT.email}`);
    const student = await command(two.events, `find ${STUDENT.email}`);
    expect(history2).toContain('No audit entries found');
    for (const answer of [history2, student]) expect(answer).not.toContain(STUDENT.name);
    expect(licenseId).toBeDefined();
    expect(await command(two.events, `history ${licenseId}`)).not.toContain(STUDENT.name);
    // A deployment's own files in DATA_DIR are not the demo's: its records are in a directory of their own.
    expect(readdirSync(dataDir)).toEqual(['local-demo']);
  }, 90_000);

  it('a local-demo directory the demo did not make is not emptied: the start stops, saying what to do', async () => {
    const other = mkdtempSync(join(tmpdir(), 'license-desk-demo-other-'));
    try {
      mkdirSync(join(other, 'local-demo'));
      writeFileSync(join(other, 'local-demo', 'keep-me.txt'), 'not the demo’s');
      main = runMain({ PORT: '0', DATA_DIR: other });
      expect(await main.exited).toBe(1);
      expect(main.output().stderr).toContain(
        "local-demo is not the local demo's directory (it has no .license-desk-local-demo file), and the demo empties its directory at each start: move it away, or set DATA_DIR to another directory",
      );
      expect(readdirSync(join(other, 'local-demo'))).toEqual(['keep-me.txt']);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  }, 30_000);
});
