import { describe, expect, it } from 'vitest';
import { runMain } from '../support/run-main.js';

describe('npm start with no settings: the local demo', () => {
  it('starts with the sandbox and the Slack double on loopback, says so, and stops cleanly on SIGTERM', async () => {
    const main = runMain({ PORT: '0' });
    try {
      const [, port] = await main.waitFor(/app listens on http:\/\/127\.0\.0\.1:(\d+)\/slack\/events/);
      const { stdout } = main.output();
      expect(stdout).toContain('SANDBOX MODE');
      expect(stdout).toMatch(/"message":"License Desk started".*"slack":"local demo \(http\)"/);
      expect(stdout).toContain('npm run try -- pools');
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(await health.json()).toMatchObject({ ok: true, sandbox: true });
      main.child.kill('SIGTERM');
      expect(await main.exited).toBe(0);
      expect(main.output().stdout).toContain('"message":"stopping","signal":"SIGTERM"');
    } finally {
      main.child.kill('SIGKILL');
    }
  });
});
