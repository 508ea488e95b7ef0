/**
 * Try a /licenses command against the running app (npm start), signed exactly as Slack signs it:
 *
 *   npx tsx src/try.ts "pools"
 *   npx tsx src/try.ts --user U0DEMOMEM1 "show 4001"
 *   npx tsx src/try.ts --json "pools"        (whole messages, blocks included)
 *
 * It receives the response_url messages itself on a loopback port and prints their text fallback.
 * Works in the local demo and in HTTP mode (it signs with the configured signing secret).
 */
import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatProblems, readConfig } from './config.js';
import { DEMO_SIGNING_SECRET, DEMO_USERS } from './slack/demo.js';

const PROGRESS = /working on it|one moment|just a moment|waiting|…\s*$|\.\.\.\s*$/i;

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

async function main(): Promise<number> {
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
  const secret = slack.mode === 'demo' ? DEMO_SIGNING_SECRET : slack.signingSecret;
  const args = parseArgs(process.argv.slice(2));

  const messages: Record<string, unknown>[] = [];
  let notify = () => {};
  const receiver = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    messages.push(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown>);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    notify();
  });
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const responseUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/response/try`;

  const body = new URLSearchParams({
    token: 'local-try',
    team_id: 'T0LOCAL001',
    team_domain: 'license-desk-local',
    channel_id: args.channel,
    channel_name: 'try',
    user_id: args.user,
    user_name: args.user.toLowerCase(),
    command: '/licenses',
    text: args.text,
    api_app_id: 'A0LICBOT01',
    is_enterprise_install: 'false',
    response_url: responseUrl,
    trigger_id: `${Date.now()}.0.try`,
  }).toString();
  const ts = Math.floor(Date.now() / 1000);
  const signature = `v0=${createHmac('sha256', secret).update(`v0:${ts}:${body}`).digest('hex')}`;
  const appUrl = `http://127.0.0.1:${slack.port}/slack/events`;
  process.stdout.write(`> /licenses ${args.text}   (as ${args.user})\n`);
  const started = performance.now();
  let ack: Response;
  try {
    ack = await fetch(appUrl, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Slack-Request-Timestamp': String(ts),
        'X-Slack-Signature': signature,
      },
      body,
    });
  } catch {
    process.stderr.write(`Nothing answers at ${appUrl}: start the app first with \`npm start\`.\n`);
    receiver.close();
    return 1;
  }
  const ackText = await ack.text();
  process.stdout.write(
    `ack: HTTP ${ack.status} in ${Math.round(performance.now() - started)} ms${ackText ? `: ${ackText}` : ''}\n`,
  );

  // Print each message as it comes; a progress note means the answer is still on its way.
  let printed = 0;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const last = messages.at(-1);
    const quiet = last && !PROGRESS.test(String(last.text ?? '')) ? 1500 : 30_000;
    const arrived = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), Math.min(quiet, deadline - Date.now()));
      notify = () => {
        clearTimeout(timer);
        resolve(true);
      };
    });
    for (; printed < messages.length; printed++) {
      const m = messages[printed] ?? {};
      const how = m.replace_original ? ' (replaces the previous message)' : '';
      process.stdout.write(`\n--- message ${printed + 1}${how} ---\n`);
      process.stdout.write(`${args.json ? JSON.stringify(m, null, 2) : String(m.text ?? '(no text fallback)')}\n`);
    }
    if (!arrived) break;
  }
  receiver.close();
  if (messages.length === 0 && !ackText) {
    process.stderr.write('No answer arrived on the response_url. Check the app log.\n');
    return 1;
  }
  return 0;
}

process.exitCode = await main();
