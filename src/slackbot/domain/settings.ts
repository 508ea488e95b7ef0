/**
 * The Slackbot tools' settings (docs/slackbot.md): SLACKBOT_MCP turns the MCP endpoint on (off unless
 * set, so an existing install exposes nothing new until its admins choose to); MCP_UNSIGNED_TEST_IDENTITY
 * is a test-only mode for MCP clients that cannot sign, refused anywhere near real Slack or licenses.
 */

export interface SlackbotSettings {
  /** POST /mcp answers (SLACKBOT_MCP=on); otherwise the path is not served. */
  on: boolean;
  /**
   * MCP_UNSIGNED_TEST_IDENTITY: an unsigned call from this machine is taken as this Slack user of the
   * installed workspace. Only in the local demo on the built-in sandbox (config refuses it elsewhere).
   */
  unsignedTestIdentity?: string;
}

export const SLACKBOT_OFF: SlackbotSettings = { on: false };

export const USER_ID = /^[UW][A-Z0-9]{2,}$/;

export const SLACKBOT_MCP_PROBLEM =
  'SLACKBOT_MCP must be on (serve the Slackbot tools at POST /mcp) or off (the default: no MCP endpoint)';
export const TEST_IDENTITY_PROBLEM =
  'MCP_UNSIGNED_TEST_IDENTITY must be a Slack user id such as U0123ABCD (the person unsigned test calls act as)';

/** What is wrong with the test-only mode beside the other settings; `set` tells whether a variable is set. */
export function testIdentityProblems(set: (name: string) => boolean, mcpOn: boolean): string[] {
  if (!set('MCP_UNSIGNED_TEST_IDENTITY')) return [];
  const problems: string[] = [];
  const why =
    'it accepts unsigned MCP calls as a fixed person, so it runs only in the local demo (listening on 127.0.0.1) on the built-in sandbox';
  if (set('SLACK_BOT_TOKEN') || set('SLACK_SIGNING_SECRET') || set('SLACK_APP_TOKEN')) {
    problems.push(
      `MCP_UNSIGNED_TEST_IDENTITY cannot run beside a real Slack workspace: ${why}. Unset MCP_UNSIGNED_TEST_IDENTITY, or unset the SLACK_* settings`,
    );
  }
  if (set('LICENSING_API_URL') || set('LICENSING_API_TOKEN')) {
    problems.push(
      `MCP_UNSIGNED_TEST_IDENTITY cannot run beside a licensing API: ${why}. Unset MCP_UNSIGNED_TEST_IDENTITY, or unset LICENSING_API_URL and LICENSING_API_TOKEN`,
    );
  }
  if (set('DATABASE_URL') || set('REDIS_URL')) {
    problems.push(
      `MCP_UNSIGNED_TEST_IDENTITY cannot run beside a shared database or Redis: ${why}, on its own records. Unset MCP_UNSIGNED_TEST_IDENTITY, or unset DATABASE_URL and REDIS_URL`,
    );
  }
  if (!mcpOn) problems.push('MCP_UNSIGNED_TEST_IDENTITY needs SLACKBOT_MCP=on: it is a mode of the MCP endpoint');
  return problems;
}

export function slackbotSettingsOf(mcp: 'on' | 'off' | undefined, identity: string | undefined): SlackbotSettings {
  const on = mcp === 'on';
  return on && identity ? { on, unsignedTestIdentity: identity.trim() } : { on };
}
