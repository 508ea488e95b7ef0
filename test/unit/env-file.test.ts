/** `.env` beside the app: loaded when present, never over the environment, reported by name only. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEnvFile, loadEnvFile } from '../../src/kernel/config/env-file.js';

const dirs: string[] = [];
function envFile(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'license-desk-env-'));
  dirs.push(dir);
  writeFileSync(join(dir, '.env'), text);
  return join(dir, '.env');
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('loadEnvFile', () => {
  it('sets what the environment lacks and keeps what it has, even an empty value', () => {
    const path = envFile('PORT=4100\nLOG_LEVEL=debug\nSLACK_BOT_TOKEN=xoxb-file-0\n');
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn', SLACK_BOT_TOKEN: '' };
    const result = loadEnvFile(path, env, (p) => {
      // A loader that overwrites everything, as a future Node might: the environment still wins.
      for (const line of ['PORT=4100', 'LOG_LEVEL=debug', 'SLACK_BOT_TOKEN=xoxb-file-0']) {
        const [k, v] = line.split('=');
        if (k && v !== undefined && p) env[k] = v;
      }
    });
    expect(env).toEqual({ PORT: '4100', LOG_LEVEL: 'warn', SLACK_BOT_TOKEN: '' });
    expect(result).toMatchObject({ loaded: true, applied: ['PORT'], kept: ['LOG_LEVEL', 'SLACK_BOT_TOKEN'] });
  });

  it("uses Node's own loader by default, with the same rule", () => {
    const path = envFile('LICENSE_DESK_TEST_A=from-file\nLICENSE_DESK_TEST_B=from-file\n');
    process.env.LICENSE_DESK_TEST_A = 'from-env';
    try {
      loadEnvFile(path);
      expect(process.env.LICENSE_DESK_TEST_A).toBe('from-env');
      expect(process.env.LICENSE_DESK_TEST_B).toBe('from-file');
    } finally {
      delete process.env.LICENSE_DESK_TEST_A;
      delete process.env.LICENSE_DESK_TEST_B;
    }
  });

  it('says nothing was loaded when there is no file, and explains a file it cannot read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'license-desk-env-'));
    dirs.push(dir);
    expect(loadEnvFile(join(dir, '.env'), {})).toEqual({ loaded: false, path: join(dir, '.env') });
    const unreadable = loadEnvFile(dir, {});
    expect(unreadable).toMatchObject({
      loaded: false,
      problem: expect.stringMatching(/^Could not read .*: fix or remove it\.$/),
    });
  });

  it('reports names, never values', () => {
    const path = envFile('LICENSING_API_TOKEN=super-secret-token-123\n');
    const result = loadEnvFile(path, {}, () => undefined);
    if (!result.loaded) throw new Error('expected the file to load');
    const line = JSON.stringify(describeEnvFile(result));
    expect(line).toContain('LICENSING_API_TOKEN');
    expect(line).not.toContain('super-secret-token-123');
  });
});
