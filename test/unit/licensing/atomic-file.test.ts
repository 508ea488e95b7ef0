import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../../../src/kernel/licensing/atomic-file.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atomic-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('writeFileAtomic (the licensing send log)', () => {
  it('writes the whole content, creates the directory and leaves no temporary file', async () => {
    const path = join(dir, 'deep', 'x.json');
    await writeFileAtomic(path, '{"n":1}');
    await writeFileAtomic(path, '{"n":2}');
    expect(await readFile(path, 'utf8')).toBe('{"n":2}');
    expect(await readdir(join(dir, 'deep'))).toEqual(['x.json']);
  });
});
