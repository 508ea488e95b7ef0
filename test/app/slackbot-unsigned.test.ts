/**
 * The Slackbot tools' test-only mode (docs/slackbot.md, "The test-only mode"): with an unsigned test
 * identity set, an MCP client that cannot sign (the MCP inspector, a conformance suite) calls the tools
 * from this machine as that fixed person, whatever its call says; signed calls are verified as always,
 * and a forged signature is still refused.
 */
import { describe, expect, it } from 'vitest';
import { startTestApp, TEST_USERS } from '../support/app-harness.js';
import { appPerFile } from '../support/app-per-file.js';
import { MCP_TEAM, mcpAs, postMcp, textOf, toolCall } from '../support/mcp.js';

const t = appPerFile('license-desk-slackbot-unsigned-', (dataDir) =>
  startTestApp({ dataDir, slackbot: { on: true, unsignedTestIdentity: TEST_USERS.viewer } }),
);

describe('MCP_UNSIGNED_TEST_IDENTITY', () => {
  it('an unsigned client acts as the test identity, not as whoever its call names', async () => {
    const unsigned = await mcpAs(t, TEST_USERS.nobody, { signed: false });
    try {
      const r = await unsigned.call('list_pools');
      expect(r.isError, textOf(r)).toBeFalsy();
      const change = await unsigned.call('revoke_license', { licenseId: 'L-1' }, TEST_USERS.admin);
      expect(textOf(change)).toContain('Only license admins');
    } finally {
      await unsigned.close();
    }
  });

  it('signed calls are still verified: a wrong signature is refused', async () => {
    const call = toolCall('list_pools', {}, { user_id: TEST_USERS.admin, team_id: MCP_TEAM });
    const forged = await postMcp(t, call, { headers: { 'X-Slack-Signature': 'v0=00' } });
    expect(forged.status).toBe(401);
    const signed = await mcpAs(t, TEST_USERS.nobody);
    try {
      expect((await signed.call('list_pools')).isError).toBe(true);
    } finally {
      await signed.close();
    }
  });
});
