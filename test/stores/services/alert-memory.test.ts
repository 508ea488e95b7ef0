/**
 * The alert memory in the database's `state` table, on SQLite and PostgreSQL: two processes' updates
 * at once lose nothing, an alerts.json of an earlier version is imported once and moved aside, and an
 * unreadable one stops npm run import-old-records with its name.
 */
import { existsSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ALERT_MEMORY_KEY, alertMemory, importAlertFile } from '../../../src/alerts/services/alerts.js';
import { importOldRecords } from '../../../src/app/old-records.js';
import { openRecords, type Records } from '../../../src/kernel/db/open.js';
import type { Logger } from '../../../src/kernel/licensing/types.js';
import { NOW } from '../../support/fixtures.js';
import { testDatabases } from '../../support/records.js';

function recordingLogger(): Logger & { lines: { message: string; fields?: unknown }[] } {
  const lines: { message: string; fields?: unknown }[] = [];
  const log = (message: string, fields?: unknown) => void lines.push({ message, fields });
  return { lines, debug: log, info: log, warn: log, error: log };
}

for (const database of testDatabases()) {
  describe.skipIf(database.skip !== undefined)(`the alert memory on ${database.dialect}`, () => {
    async function open() {
      const opened = await database.open();
      onTestFinished(() => opened.close());
      return opened;
    }
    /** A second replica on the same PostgreSQL database. */
    async function second(dataDir: string, databaseUrl: string): Promise<Records> {
      const other = await openRecords({ dataDir, heartbeatMs: 0, databaseUrl });
      onTestFinished(() => other.close());
      return other;
    }

    it('updates at once (two replicas on PostgreSQL, two users of the one SQLite process) are all kept', async () => {
      const { records, dataDir, databaseUrl } = await open();
      // SQLite in DATA_DIR belongs to one process (config.ts refuses REDIS_URL without DATABASE_URL).
      const other = databaseUrl ? await second(dataDir, databaseUrl) : records;
      const a = alertMemory(records);
      const b = alertMemory(other);
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          (i % 2 ? a : b).update((s) => {
            s.sent[`pool-full:${i}`] = NOW.toISOString();
          }),
        ),
      );
      const seen = await b.read();
      expect(Object.keys(seen.sent).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `pool-full:${i}`).sort());
      const rows = await records.db.selectFrom('state').select(['key']).execute();
      expect(rows.map((r) => r.key)).toEqual([ALERT_MEMORY_KEY]);
    });

    it('an alerts.json is imported once: merged into what the database remembers, then moved aside with a log line', async () => {
      const { records, dataDir } = await open();
      const memory = alertMemory(records);
      await memory.update((s) => {
        s.sent['pool-full:1'] = '2026-11-20T09:00:00.000Z';
        s.lastRunDay = '2026-11-19';
      });
      const path = join(dataDir, 'alerts.json');
      await writeFile(
        path,
        JSON.stringify({
          version: 1,
          sent: {
            'pool-full:1': '2026-01-01T09:00:00.000Z',
            'license-ending:7:2026-12-01': '2026-11-18T09:00:00.000Z',
          },
          acknowledged: { '7': { by: 'U0MGR00001', at: '2026-11-18T10:00:00.000Z' } },
          lastRunDay: '2026-11-20',
          messages: { 'C0ALERTS01:1.2': { at: '2026-11-18T09:00:00.000Z', licenses: ['7'] } },
        }),
      );
      const logger = recordingLogger();
      expect(await importAlertFile(memory, path, logger, () => NOW)).toBe(true);
      const state = await memory.read();
      expect(state.sent).toEqual({
        'pool-full:1': '2026-11-20T09:00:00.000Z',
        'license-ending:7:2026-12-01': '2026-11-18T09:00:00.000Z',
      });
      expect(state.acknowledged['7']).toMatchObject({ by: 'U0MGR00001' });
      expect(state.lastRunDay).toBe('2026-11-20');
      expect(state.messages?.['C0ALERTS01:1.2']?.licenses).toEqual(['7']);
      expect(existsSync(path)).toBe(false);
      const aside = (await readdir(dataDir)).filter((f) => f.startsWith('alerts.json.imported-'));
      expect(aside).toHaveLength(1);
      expect(logger.lines).toContainEqual({
        message: 'alert memory file imported into the database and moved aside',
        fields: { path, aside: join(dataDir, aside[0] ?? ''), announced: 2 },
      });
      // Nothing left to import the next time.
      expect(await importAlertFile(memory, path, logger, () => NOW)).toBe(false);
    });

    it('an unreadable alerts.json stops npm run import-old-records with its name; nothing is imported and the file stays', async () => {
      const { records, dataDir } = await open();
      const path = join(dataDir, 'alerts.json');
      await writeFile(path, '{"version":1,"sent":');
      const start = importOldRecords({ records, dataDir, logger: recordingLogger(), now: () => NOW });
      await expect(start).rejects.toThrow(
        `The alert memory file ${path} is not an alert memory License Desk wrote (damaged or edited): restore it from a backup, or move it aside`,
      );
      expect(existsSync(path)).toBe(true);
      expect(await records.db.selectFrom('state').selectAll().execute()).toEqual([]);
    });
  });
}
