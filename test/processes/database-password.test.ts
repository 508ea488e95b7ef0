/**
 * The database password never reaches the operator's screen or the log, whatever the shape of
 * DATABASE_URL: in the user information (with an unencoded `@`), in the query string (`?password=`,
 * which the PostgreSQL driver reads too), or with an unencoded `/` that makes the URL read otherwise.
 * The real process (src/main.ts) on a private PostgreSQL that trusts every local user: the password is
 * there only to be kept out of what is printed.
 */
import { describe, expect, it } from 'vitest';
import { TEST_BOT_TOKEN } from '../support/app-harness.js';
import { mainRig } from '../support/main-rig.js';
import { freshPostgresDatabase, postgresSkipReason } from '../support/postgres.js';
import { logLinesOf, type MainProcess } from '../support/run-main.js';

const PASSWORD = 'S3cr3tPgPw';

const rig = mainRig({ name: 'database-password', secret: 'dbpw0signing0secret0for0tests', botToken: TEST_BOT_TOKEN });
const startOn = (databaseUrl: string) => rig.start({ DATABASE_URL: databaseUrl });

/** Everything the process printed: its log (stdout) and its refusals (stderr). */
const printed = (m: MainProcess) => `${m.output().stdout}\n${m.output().stderr}`;

describe('the database password is never printed', () => {
  it.skipIf(postgresSkipReason() !== undefined)(
    '?password= in the query string: the "records opened" line names the database without it',
    async () => {
      const url = new URL(await freshPostgresDatabase());
      url.search = `?application_name=license-desk&password=${PASSWORD}`;
      const main = startOn(url.toString());
      await main.waitFor(/"message":"License Desk started"/, 30_000);
      const opened = logLinesOf(main).find((l) => l.message === 'records opened');
      expect(opened?.database).toBe('postgres');
      // (The user name before the host is masked by the log as an e-mail address would be.)
      expect(opened?.where).toMatch(/^postgres:.*@/);
      expect(String(opened?.where).replace(/^.*@/, '')).toBe(
        `${url.host}${url.pathname}?application_name=license-desk&password=***`,
      );
      expect(printed(main)).not.toContain(PASSWORD);
    },
    40_000,
  );

  it('an unencoded @ in the password: the refusal of an unreachable database names it without the password', async () => {
    const main = startOn(`postgres://desk:${PASSWORD}@x@127.0.0.1:9/license_desk`);
    expect(await main.exited).toBe(1);
    expect(main.output().stderr).toContain(
      'License Desk could not start: The database at postgres://desk:***@127.0.0.1:9/license_desk could not be reached',
    );
    expect(printed(main)).not.toContain(PASSWORD);
  }, 30_000);

  it('an unencoded / in the password: refused at once, saying to percent-encode it, without repeating the URL', async () => {
    // Read by a URL parser, "desk:1234" is a host and a port, and the rest of the password a path.
    const main = startOn(`postgres://desk:1234/${PASSWORD}@127.0.0.1:9/license_desk`);
    expect(await main.exited).toBe(1);
    const { stderr } = main.output();
    expect(stderr).toContain('License Desk cannot start: 1 configuration problem.');
    expect(stderr).toContain(
      'DATABASE_URL cannot be read as written: a / ? # @ or : in its user name or password must be percent-encoded (/ as %2F',
    );
    expect(printed(main)).not.toContain(PASSWORD);
    expect(printed(main)).not.toContain('1234/');
  }, 30_000);
});
