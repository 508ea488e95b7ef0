/**
 * The HTTP entry point of the real process (src/main.ts in a child, local demo): signed but malformed
 * bodies get a 4xx and the process keeps serving; the process-level error policy logs a stray
 * rejection and goes on, and exits for the supervisor on an uncaught exception.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SIGNING_SECRET, DEMO_USERS } from '../../local/slack/demo.js';
import { logLinesOf, type MainProcess, runMain } from '../support/run-main.js';
import { commandBody, FORM, slackHeaders } from '../support/slack-signing.js';

const STARTED = /app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/;

async function post(port: string, body: string, contentType = FORM) {
  const res = await fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    headers: slackHeaders(DEMO_SIGNING_SECRET, body, { contentType }),
    body,
  });
  return { status: res.status, text: await res.text() };
}

const logLines = (main: MainProcess) => logLinesOf(main);

describe('signed but malformed bodies against the running process', () => {
  let main: MainProcess;
  let port: string;
  beforeAll(async () => {
    main = runMain({ PORT: '0' });
    [, port = ''] = await main.waitFor(STARTED);
  });
  afterAll(async () => {
    main.child.kill('SIGTERM');
    await main.exited;
  });

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const interaction = (payload: Record<string, unknown>) => form({ payload: JSON.stringify(payload) });
  const clicker = { type: 'block_actions', user: { id: DEMO_USERS.admin, team_id: 'T0DEMO0001' } };
  const JSON_TYPE = 'application/json';
  const event = (inner: Record<string, unknown>) =>
    JSON.stringify({ type: 'event_callback', team_id: 'T0DEMO0001', event: inner });
  const cases: [string, string, string?][] = [
    ['payload=null', form({ payload: 'null' })],
    ['JSON body null', 'null', 'application/json'],
    ['payload=42', form({ payload: '42' })],
    ['payload="x"', form({ payload: '"x"' })],
    ['payload=[]', form({ payload: '[]' })],
    ['payload that is not JSON', form({ payload: '{"type":' })],
    ['a JSON array', '[{"type":"event_callback"}]', 'application/json'],
    ['JSON that is not JSON', '{"type":', 'application/json'],
    ['neither command nor type', form({ team_id: 'T1', user_id: DEMO_USERS.admin })],
    ['an unknown type', JSON.stringify({ type: 'no_such_type' }), 'application/json'],
    ['an event that is null', JSON.stringify({ type: 'event_callback', event: null }), 'application/json'],
    ['block_actions with actions null', form({ payload: JSON.stringify({ type: 'block_actions', actions: null }) })],
    ['view_submission without a view', form({ payload: JSON.stringify({ type: 'view_submission', view: null }) })],
    ['payload given twice', 'payload=%7B%7D&payload=%7B%7D'],
    // Bolt reads who acted (user.id, user.team_id) and where (channel.id) before any listener runs.
    ['a click without a user', interaction({ type: 'block_actions', actions: [{ action_id: 'x' }] })],
    ['a click whose user is null', interaction({ type: 'block_actions', actions: [{ action_id: 'x' }], user: null })],
    ['a click whose channel is null', interaction({ ...clicker, actions: [{ action_id: 'x' }], channel: null })],
    ['a view_submission without a user', interaction({ type: 'view_submission', view: { callback_id: 'x' } })],
    ['a shortcut without a user', interaction({ type: 'shortcut', callback_id: 'assign_shortcut' })],
    ['an event whose user is null', event({ type: 'app_home_opened', user: null }), JSON_TYPE],
    ['an event whose channel is null', event({ type: 'app_home_opened', user: 'U1', channel: null }), JSON_TYPE],
    ['a command without a response_url', form({ command: '/licenses', text: 'help', user_id: DEMO_USERS.admin })],
    ['a command without a user_id', form({ command: '/licenses', text: 'help', response_url: 'http://127.0.0.1:1/r' })],
    ['an event whose item is a number', event({ type: 'reaction_added', user: 'U1', item: 5 }), JSON_TYPE],
  ];

  it.each(cases)('%s: a 4xx saying what is wrong, and the process keeps serving', async (_name, body, type) => {
    const res = await post(port, body, type);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/^Malformed Slack request: /);
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
  });

  it('still answers a signed command afterwards, and never logged an unhandled error', async () => {
    const body = commandBody({
      team_id: 'T0DEMO0001',
      channel_id: 'C0DEMO0001',
      user_id: DEMO_USERS.admin,
      command: '/licenses',
      text: 'help',
      response_url: 'http://127.0.0.1:1/response/none',
      trigger_id: '1.2.3',
    });
    expect((await post(port, body)).status).toBe(200);
    expect(main.child.exitCode).toBeNull();
    const lines = logLines(main);
    expect(
      lines.filter((l) =>
        /^(unhandled promise rejection|uncaught exception|An unhandled error occurred)/.test(String(l.message)),
      ),
    ).toEqual([]);
    const refusals = lines.filter((l) => l.message === 'Slack request refused' && l.reason === 'malformed');
    expect(refusals.length).toBeGreaterThan(0);
    expect(refusals[0]).toMatchObject({ level: 'warn', status: 400 });
  });
});

describe('the process-level error policy', () => {
  const fault = fileURLToPath(new URL('../support/process-fault.ts', import.meta.url));

  it('an unhandled rejection: one structured error line, and the process keeps serving', async () => {
    const main = runMain({ PORT: '0', LICENSE_DESK_TEST_FAULT: 'rejection' }, { nodeArgs: ['--import', fault] });
    try {
      const [, port] = await main.waitFor(STARTED);
      main.child.kill('SIGUSR2');
      await main.waitFor(/"message":"unhandled promise rejection"/);
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      const lines = logLines(main).filter((l) => l.message === 'unhandled promise rejection');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'error', error: { message: 'injected rejection' } });
      main.child.kill('SIGTERM');
      expect(await main.exited).toBe(0);
    } finally {
      main.child.kill('SIGKILL');
    }
  });

  it('an uncaught exception: one structured error line, then exit 1 for the supervisor to restart', async () => {
    const main = runMain({ PORT: '0', LICENSE_DESK_TEST_FAULT: 'exception' }, { nodeArgs: ['--import', fault] });
    try {
      await main.waitFor(STARTED);
      main.child.kill('SIGUSR2');
      expect(await main.exited).toBe(1);
      const lines = logLines(main).filter((l) => l.message === 'uncaught exception: exiting');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 'error', error: { message: 'injected exception' } });
    } finally {
      main.child.kill('SIGKILL');
    }
  });
});
