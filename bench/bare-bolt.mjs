/**
 * A bare Bolt 5 app in HTTP mode with a /healthz route: what bench/startup.ts compares License Desk's
 * start-up with. It reads the same SLACK_BOT_TOKEN, SLACK_SIGNING_SECRET, SLACK_API_URL and PORT.
 */
import bolt from '@slack/bolt';

const app = new bolt.App({
  token: process.env.SLACK_BOT_TOKEN,
  signingSecret: process.env.SLACK_SIGNING_SECRET,
  clientOptions: { slackApiUrl: process.env.SLACK_API_URL },
  customRoutes: [{ path: '/healthz', method: ['GET'], handler: (_req, res) => res.writeHead(200).end('ok') }],
});
app.command('/licenses', async ({ ack }) => ack('hello'));
process.on('SIGTERM', () => void app.stop().then(() => process.exit(0)));
await app.start(Number(process.env.PORT ?? 3000));
