/** The send log's file in DATA_DIR: what a restarted process inherits, and bad files that lose nothing. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createSendLog } from '../../../src/kernel/licensing/limiter/limiter-sends.js';
import { createRecordingLogger } from '../../support/licensing-fakes.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
});

async function tmp(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'license-desk-sends-'));
  dirs.push(dir);
  return dir;
}

function setup(file: string, budget = 'budget-a') {
  let t = 1_000_000;
  const logger = createRecordingLogger();
  const log = () => createSendLog({ keepMs: 1_050, now: () => t, file, budget, logger });
  return { log, logger, advance: (ms: number) => (t += ms), at: () => t };
}

describe('send log file', () => {
  it('a new log on the same file inherits the sends whose slots are still held, with their release times', async () => {
    const file = join(await tmp(), 'nested', 'sends.json');
    const { log, advance, at } = setup(file);
    const first = log();
    expect(first.inherited).toEqual([]);
    const answered = first.record(at(), at() + 5_000);
    answered(at() + 1_060);
    advance(10);
    first.record(at(), at() + 5_000);
    advance(10);
    await first.flush();
    advance(1_050);
    // The first send's slot was released 1_060 ms after it; the second is still in flight (expiration).
    expect(log().inherited).toEqual([{ at: 1_000_010, until: 1_005_010 }]);
  });

  it('a burst of sends all reach the file, with the budget they belong to', async () => {
    const file = join(await tmp(), 'sends.json');
    const { log, at } = setup(file);
    const sends = log();
    for (let i = 0; i < 25; i++) sends.record(at(), at() + 1_050);
    await sends.flush();
    const saved = JSON.parse(await readFile(file, 'utf8'));
    expect(saved).toMatchObject({ version: 1, budget: 'budget-a' });
    expect(saved.sends).toHaveLength(25);
  });

  it('ignores a file of another token, and one that is not what it writes, with a warning', async () => {
    const dir = await tmp();
    const other = join(dir, 'other.json');
    const first = setup(other, 'budget-a');
    const sends = first.log();
    sends.record(first.at(), first.at() + 1_050);
    await sends.flush();
    expect(setup(other, 'budget-b').log().inherited).toEqual([]);

    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{"version":1,"budget":"budget-a","sends":[[1,"x"]]}');
    const { log, logger } = setup(broken);
    expect(log().inherited).toEqual([]);
    expect(logger.lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(logger.lines[0]?.message).toMatch(/starting as if none were sent/);
  });

  it('a DATA_DIR it cannot write to costs one warning, not an error per request', async () => {
    const dir = await tmp();
    const blocker = join(dir, 'not-a-dir');
    await writeFile(blocker, 'a file where the directory should be');
    const { log, logger, at } = setup(join(blocker, 'sends.json'));
    const sends = log();
    for (let i = 0; i < 3; i++) {
      sends.record(at(), at() + 1_050);
      await sends.flush();
    }
    expect(sends.countBetween(at() - 1, at() + 1)).toBe(3);
    // Reading said so once at start, writing once at the first failure; then nothing more.
    const warnings = logger.lines.filter((l) => l.level === 'warn').map((l) => l.message);
    expect(warnings).toHaveLength(2);
    expect(warnings.filter((m) => /could not save the recent licensing requests/.test(m))).toHaveLength(1);
  });
});
