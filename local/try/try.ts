/**
 * Try a /licenses command against the running app (npm start), signed exactly as Slack signs it:
 *
 *   npm run try -- pools
 *   npm run try -- --user U0DEMOMEM1 show 4001
 *   npm run try -- find @alberto.rossi      (the text is escaped as Slack escapes it: <@U…|name>)
 *   npm run try -- --json pools             (the raw payloads, blocks included)
 *
 * It receives the response_url messages itself on a loopback port and prints them as readable text,
 * and in the local demo it also shows what the app did in the Slack double (a modal opened or updated,
 * a message or file posted). It stops as soon as the answer is complete. Works in the local demo and in
 * HTTP mode (it signs with the configured signing secret).
 */
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatProblems, readConfig } from '../../src/kernel/config/config.js';
import { loadEnvFile } from '../../src/kernel/config/env-file.js';
import { DEMO_SIGNING_SECRET, DEMO_SLACK_USERS, DEMO_USERS } from '../slack/demo.js';
import { escapeLikeSlack, isInProgress, messageToText, viewToText } from './render.js';

/** Longest wait for the answer: the licensing queue may hold a read for a while (25 requests a minute). */
const DEADLINE_MS = 90_000;
/** With nothing on its way, how long an answer may take to begin. */
const FIRST_SIGN_MS = 20_000;
/** Once the answer looks complete, a moment more for a second message that belongs to it. */
const SETTLE_MS = 300;

type Json = Record<string, unknown>;

interface RecordedCall {
  method: string;
  args: Json;
  result?: Json;
}

function parseArgs(argv: string[]) {
  const out = { user: DEMO_USERS.admin as string, channel: 'C0DEMOCHAN', json: false, text: [] as string[] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--user') out.user = argv[++i] ?? out.user;
    else if (a === '--channel') out.channel = argv[++i] ?? out.channel;
    else if (a === '--json') out.json = true;
    else out.text.push(a);
  }
  return { ...out, text: out.text.join(' ') };
}

const print = (text: string) => process.stdout.write(`${text}\n`);

async function readJson(url: string, timeoutMs: number): Promise<Json | undefined> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    return res.ok ? ((await res.json()) as Json) : undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const envFile = loadEnvFile();
  if ('problem' in envFile) {
    process.stderr.write(`${envFile.problem}\n`);
    return 1;
  }
  const result = readConfig();
  if (!result.ok) {
    process.stderr.write(`${formatProblems(result.problems)}\n`);
    return 1;
  }
  const { slack } = result.config;
  if (slack.mode === 'socket') {
    process.stderr.write('try.ts posts over HTTP; the app is configured for Socket Mode (SLACK_APP_TOKEN is set).\n');
    return 1;
  }
  const demo = slack.mode === 'demo';
  const secret = demo ? DEMO_SIGNING_SECRET : slack.signingSecret;
  const args = parseArgs(process.argv.slice(2));
  const appBase = `http://127.0.0.1:${slack.port}`;

  const health = await readJson(`${appBase}/healthz`, 3000);
  if (!health) {
    process.stderr.write(
      `Nothing answers at ${appBase}: start the app first with \`npm start\` (give both the same PORT).\n`,
    );
    return 1;
  }
  // The local demo's Slack double keeps a record of the Web API calls: modals opened, messages posted.
  const localSlack = typeof health.localSlack === 'string' ? health.localSlack : undefined;
  let seen = localSlack ? Number((await readJson(`${localSlack}/calls?after=1000000000`, 3000))?.next ?? 0) : 0;

  // Everything that happens, in order; `wake` resolves the main loop's wait.
  const events: ({ kind: 'message'; body: Json } | { kind: 'call'; call: RecordedCall })[] = [];
  let wake = () => {};
  const push = (event: (typeof events)[number]) => {
    events.push(event);
    wake();
  };

  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Json;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Json;
    } catch {
      body = { text: '(a response_url post that was not JSON)' };
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    push({ kind: 'message', body });
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const responseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/response/try`;

  const triggerId = `${Date.now()}.0.try`;
  // As Slack sends it (should_escape): the demo's members are known by name, e-mails are auto-linked.
  const text = escapeLikeSlack(args.text, demo ? DEMO_SLACK_USERS : []);
  const body = new URLSearchParams({
    token: 'local-try',
    team_id: 'T0LOCAL001',
    team_domain: 'license-desk-local',
    channel_id: args.channel,
    channel_name: 'try',
    user_id: args.user,
    user_name: args.user.toLowerCase(),
    command: '/licenses',
    text,
    api_app_id: 'A0LICBOT01',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: triggerId,
  }).toString();
  const ts = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  print(`> /licenses ${args.text}   (as ${args.user})`);
  if (text !== args.text) print(`  Slack sends the text as: ${text}`);
  const started = performance.now();
  let ack: Response;
  try {
    ack = await fetch(`${appBase}/slack/events`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Slack-Request-Timestamp': String(ts),
        'X-Slack-Signature': signature,
      },
      body,
    });
  } catch {
    process.stderr.write(`Nothing answers at ${appBase}: start the app first with \`npm start\`.\n`);
    receiver.close();
    return 1;
  }
  const ackText = await ack.text();
  print(`ack: HTTP ${ack.status} in ${Math.round(performance.now() - started)} ms${ackText ? `: ${ackText}` : ''}`);

  // Follow the Slack double's record (long polls) while the answer comes in.
  let watching = localSlack !== undefined;
  const watch = async () => {
    while (watching && localSlack) {
      const page = await readJson(`${localSlack}/calls?after=${seen}&waitMs=1000`, 5000);
      if (!page) break;
      seen = Number(page.next ?? seen);
      for (const call of (page.calls ?? []) as RecordedCall[]) push({ kind: 'call', call });
    }
  };
  const watcher = watch();

  // Modals that belong to this command: opened with its trigger_id, then updated by view id or external id.
  const ours = new Set<string>();
  const openViews = new Map<string, Json>();
  const state = { messageInProgress: false, answered: ackText !== '', printed: 0 };

  const show = (event: (typeof events)[number]) => {
    if (event.kind === 'message') {
      const m = event.body;
      const how = m.replace_original ? ', replaces the previous one' : '';
      const who = m.response_type === 'in_channel' ? 'in the channel' : 'only you see it';
      print(`\n─── reply (${who}${how}) ───`);
      print(args.json ? JSON.stringify(m, null, 2) : messageToText(m));
      state.messageInProgress = isInProgress(m);
      if (!state.messageInProgress) state.answered = true;
      return;
    }
    const { method, args: a, result: r } = event.call;
    if (method === 'views.open' || method === 'views.push' || method === 'views.update') {
      const view = (a.view ?? {}) as Json;
      const id = String((r?.view as Json | undefined)?.id ?? a.view_id ?? '');
      const external = typeof view.external_id === 'string' ? view.external_id : String(a.external_id ?? '');
      const belongs = a.trigger_id === triggerId || ours.has(id) || (external !== '' && ours.has(`ext:${external}`));
      if (!belongs) return;
      if (id) ours.add(id);
      if (external) ours.add(`ext:${external}`);
      const key = id || `ext:${external}`;
      openViews.set(key, view);
      const what =
        method === 'views.update' ? 'modal updated' : method === 'views.push' ? 'modal pushed' : 'modal opened';
      print(`\n─── ${what} (in Slack the person now sees this form) ───`);
      print(args.json ? JSON.stringify(view, null, 2) : viewToText(view));
      if (!isInProgress(view)) state.answered = true;
      return;
    }
    if (method === 'chat.postMessage' || method === 'chat.postEphemeral' || method === 'chat.update') {
      const where = String(a.channel ?? '');
      if (where !== args.channel && where !== `D${args.user.slice(1)}` && a.user !== args.user) return;
      const to = where.startsWith('D') ? 'a DM' : where;
      print(`\n─── ${method} to ${to} ───`);
      print(args.json ? JSON.stringify(a, null, 2) : messageToText(a));
      return;
    }
    if (method === 'files.completeUploadExternal') {
      const files = (typeof a.files === 'string' ? JSON.parse(a.files) : a.files) as { title?: string }[];
      print(`\n─── file shared to ${String(a.channel_id ?? '?')}: ${files.map((f) => f.title ?? '').join(', ')} ───`);
      if (typeof a.initial_comment === 'string') print(messageToText({ text: a.initial_comment }));
    }
  };

  const inProgress = () => state.messageInProgress || [...openViews.values()].some((v) => isInProgress(v));
  const deadline = Date.now() + DEADLINE_MS;
  const firstSign = Date.now() + FIRST_SIGN_MS;
  let complete = false;
  while (Date.now() < deadline) {
    for (; state.printed < events.length; state.printed++) show(events[state.printed] as (typeof events)[number]);
    if (state.answered && !inProgress()) complete = true;
    const nothingYet = !state.answered && !inProgress();
    if (nothingYet && Date.now() > firstSign) break;
    const waitMs = complete ? SETTLE_MS : Math.max(0, (nothingYet ? firstSign : deadline) - Date.now());
    const arrived = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), waitMs);
      wake = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    if (!arrived && complete) break;
  }
  watching = false;
  receiver.close();
  await watcher;
  if (!complete) {
    const started = state.answered || inProgress();
    const what = started ? 'The answer did not finish' : 'No answer arrived';
    // Outside the local demo a form opens in the real Slack, where try cannot see it.
    const hint = localSlack ? '' : ' If the command opens a form, it opened in Slack.';
    process.stderr.write(
      `\n${what} within ${Math.round((started ? DEADLINE_MS : FIRST_SIGN_MS) / 1000)} s. Check the app's log.${hint}\n`,
    );
    return 1;
  }
  return 0;
}

process.exitCode = await main();
