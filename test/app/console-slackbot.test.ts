/**
 * The local console's "Ask Slackbot" panel (docs/console.md): its back end lists the Slackbot tools and
 * calls one as the person shown, signed as Slack signs it, through the app's own POST /mcp; with the
 * tools off it says how to turn them on.
 */
import { describe, expect, it } from 'vitest';
import { createConsole } from '../../local/console/server.js';
import { LOCAL_TEAM } from '../../local/slack/local-slack.js';
import { startTestApp, TEST_SIGNING_SECRET, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { DEFAULT_TEST_USERS } from '../support/fake-slack.js';

const consoleFor = () =>
  createConsole({
    users: DEFAULT_TEST_USERS,
    roleLabels: { [TEST_USERS.admin]: 'license admin', [TEST_USERS.viewer]: 'viewer' },
    channels: [{ id: 'C0LICOPS01', name: 'license-ops', kind: 'channel' }],
    signingSecret: TEST_SIGNING_SECRET,
    botUserId: 'U0LICBOT01',
    team: { id: LOCAL_TEAM.id, domain: LOCAL_TEAM.domain },
    appId: 'A0LICBOT01',
    logger: { debug() {}, info() {}, warn() {}, error() {} },
  });

const t = appPerFile('license-desk-console-slackbot-', (dataDir) =>
  startTestApp({ dataDir, slackbot: { on: true }, routes: consoleFor().routes }),
);

const ask = async (body: Record<string, unknown>) => {
  const res = await fetch(`${t.url}/console/slackbot`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as {
    ok: boolean;
    answer?: {
      result?: { tools?: { name: string }[]; content?: { text: string }[]; isError?: boolean; _meta?: unknown };
    };
  };
};

describe('Ask Slackbot in the local console', () => {
  it('lists the tools and calls one as the chosen person: the text and the blocks', async () => {
    const list = await ask({ user: TEST_USERS.viewer });
    expect(list.answer?.result?.tools?.map((x) => x.name)).toContain('list_pools');
    const pools = await ask({ user: TEST_USERS.viewer, name: 'list_pools', arguments: {} });
    expect(pools.answer?.result?.isError).toBeFalsy();
    expect(pools.answer?.result?.content?.[0]?.text).toContain('Pool 2001');
    expect(JSON.stringify(pools.answer?.result?._meta)).toContain('"blocks"');
    const refused = await ask({ user: TEST_USERS.nobody, name: 'list_pools', arguments: {} });
    expect(refused.answer?.result?.isError).toBe(true);
  });
});
