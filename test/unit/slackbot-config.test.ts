/**
 * SLACKBOT_MCP and the test-only MCP_UNSIGNED_TEST_IDENTITY (docs/slackbot.md): off unless set; the
 * unsigned mode only in the local demo on the built-in sandbox, refused elsewhere with what to unset.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/kernel/config/config.js';

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-test-not-a-token', SLACK_SIGNING_SECRET: 'test-signing-secret-fake' };

describe('the Slackbot settings', () => {
  it('SLACKBOT_MCP is off unless set to on; anything else is refused with the two choices', () => {
    const off = parseConfig(SLACK);
    expect(off.ok && off.config.slackbot).toEqual({ on: false });
    const on = parseConfig({ ...SLACK, SLACKBOT_MCP: 'on' });
    expect(on.ok && on.config.slackbot).toEqual({ on: true });
    const bad = parseConfig({ ...SLACK, SLACKBOT_MCP: 'yes' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problems.join('\n')).toContain('SLACKBOT_MCP must be on');
  });

  it('the unsigned test identity runs in the local demo on the sandbox only', () => {
    const demo = parseConfig({ SLACKBOT_MCP: 'on', MCP_UNSIGNED_TEST_IDENTITY: 'U0MGR00001' });
    expect(demo.ok && demo.config.slackbot).toEqual({ on: true, unsignedTestIdentity: 'U0MGR00001' });
  });

  it('refuses to start the unsigned mode beside real Slack credentials, a licensing API, or without the endpoint', () => {
    const withSlack = parseConfig({ ...SLACK, SLACKBOT_MCP: 'on', MCP_UNSIGNED_TEST_IDENTITY: 'U0MGR00001' });
    expect(!withSlack.ok && withSlack.problems.join('\n')).toContain(
      'MCP_UNSIGNED_TEST_IDENTITY cannot run beside a real Slack workspace',
    );
    const withApi = parseConfig({
      SLACKBOT_MCP: 'on',
      MCP_UNSIGNED_TEST_IDENTITY: 'U0MGR00001',
      LICENSING_API_URL: 'http://127.0.0.1:4010',
      LICENSING_API_TOKEN: 'token-0123456789',
    });
    expect(!withApi.ok && withApi.problems.join('\n')).toContain(
      'MCP_UNSIGNED_TEST_IDENTITY cannot run beside a licensing API',
    );
    for (const real of [
      { DATABASE_URL: 'postgres://desk@db.example.com/desk' },
      { REDIS_URL: 'redis://127.0.0.1:6379' },
    ]) {
      const beside = parseConfig({ SLACKBOT_MCP: 'on', MCP_UNSIGNED_TEST_IDENTITY: 'U0MGR00001', ...real });
      expect(!beside.ok && beside.problems.join('\n')).toContain(
        'MCP_UNSIGNED_TEST_IDENTITY cannot run beside a shared database or Redis',
      );
    }
    const noEndpoint = parseConfig({ MCP_UNSIGNED_TEST_IDENTITY: 'U0MGR00001' });
    expect(!noEndpoint.ok && noEndpoint.problems).toEqual([
      'MCP_UNSIGNED_TEST_IDENTITY needs SLACKBOT_MCP=on: it is a mode of the MCP endpoint',
    ]);
    const notAUser = parseConfig({ SLACKBOT_MCP: 'on', MCP_UNSIGNED_TEST_IDENTITY: 'dana' });
    expect(!notAUser.ok && notAUser.problems.join('\n')).toContain(
      'MCP_UNSIGNED_TEST_IDENTITY must be a Slack user id',
    );
  });
});
