import { describe, expect, it } from 'vitest';
import { runMain } from '../support/run-main.js';

describe('starting with a bad environment', () => {
  it('exits 1 at once, listing every problem with its fix and no secret', async () => {
    const env = {
      SLACK_BOT_TOKEN: 'xoxp-S3KR1Tbt',
      SLACK_SIGNING_SECRET: 'S3KR1T with spaces',
      LICENSING_API_TOKEN: 'S3KR1T-licensing-token',
      PORT: 'http',
      LICENSE_VIEWERS: 'everyone',
      LOG_LEVEL: 'loud',
    };
    const main = runMain(env);
    expect(await main.exited).toBe(1);
    const { stdout, stderr } = main.output();
    expect(stderr).toMatch(/^License Desk cannot start: 6 configuration problems\./);
    for (const name of [
      'SLACK_BOT_TOKEN',
      'SLACK_SIGNING_SECRET',
      'LICENSING_API_URL is missing',
      'PORT',
      'LICENSE_VIEWERS',
      'LOG_LEVEL',
    ]) {
      expect(stderr).toContain(`  - ${name}`);
    }
    expect(stderr).toContain('copy it from OAuth & Permissions');
    expect(stdout + stderr).not.toMatch(/S3KR1T/);
  });

  it('exits 1 with a clear sentence when Slack cannot be reached to check the token', async () => {
    const main = runMain({
      SLACK_BOT_TOKEN: 'xoxb-S3KR1Tun',
      SLACK_SIGNING_SECRET: 'signing-S3KR1T-0123',
      SLACK_API_URL: 'http://127.0.0.1:9/api/',
      PORT: '0',
    });
    expect(await main.exited).toBe(1);
    const { stdout, stderr } = main.output();
    expect(stderr).toMatch(
      /License Desk could not start: Could not check the bot token with Slack at http:\/\/127\.0\.0\.1:9\/api\//,
    );
    expect(stdout).toContain('SANDBOX MODE');
    expect(stdout + stderr).not.toMatch(/S3KR1T/);
  });
});
