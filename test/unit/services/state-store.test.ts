import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJsonFile, writeFileAtomic } from '../../../src/services/state-store.js';

const logger = { debug() {}, info() {}, warn() {}, error() {} };
let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const counter = (path: string) =>
  createJsonFile<{ n: number }>({
    path,
    logger,
    empty: () => ({ n: 0 }),
    parse: (v) => (typeof (v as { n?: unknown })?.n === 'number' ? (v as { n: number }) : undefined),
  });

describe('state store', () => {
  it('writes atomically: no temporary file is left, and the directory is created', async () => {
    const path = join(dir, 'deep', 'x.json');
    await writeFileAtomic(path, '{"n":1}');
    expect(await readFile(path, 'utf8')).toBe('{"n":1}');
    expect(await readdir(join(dir, 'deep'))).toEqual(['x.json']);
  });

  it('serialises concurrent updates in call order, and a new reader sees them all', async () => {
    const path = join(dir, 'c.json');
    const file = counter(path);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        file.update((v) => {
          v.n += 1;
        }),
      ),
    );
    expect((await file.read()).n).toBe(20);
    expect((await counter(path).read()).n).toBe(20);
  });

  it('moves a corrupt file aside and starts empty instead of failing', async () => {
    const path = join(dir, 'bad.json');
    await writeFile(path, '{ not json');
    expect(await counter(path).read()).toEqual({ n: 0 });
    expect((await readdir(dir)).some((f) => f.startsWith('bad.corrupt-'))).toBe(true);
  });

  it('an update that throws changes nothing on disk or in memory', async () => {
    const path = join(dir, 'c.json');
    const file = counter(path);
    await file.update((v) => {
      v.n = 5;
    });
    await expect(
      file.update(() => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect((await file.read()).n).toBe(5);
    expect(JSON.parse(await readFile(path, 'utf8')).n).toBe(5);
  });
});
