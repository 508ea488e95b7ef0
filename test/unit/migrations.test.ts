/**
 * The migrations folder (src/kernel/db/migrations): each migration file is listed in the index under
 * its own file name, in the order of the names, and the list holds no other. A file added and not
 * listed, or listed under another name, would never run, or would run under a name no database knows.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from '../../src/kernel/db/migrations/index.js';

const folder = new URL('../../src/kernel/db/migrations/', import.meta.url);
const files = readdirSync(folder)
  .filter((f) => /^\d{4}_[a-z0-9_]+\.ts$/.test(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .sort();

describe('the migrations, one file each', () => {
  it('lists every migration file under its file name, in order, and nothing else', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(MIGRATION_NAMES).toEqual(files);
  });

  it('holds only migration files besides the index and the column kit', () => {
    const others = readdirSync(folder).filter((f) => !/^\d{4}_[a-z0-9_]+\.ts$/.test(f));
    expect(others.sort()).toEqual(['columns.ts', 'index.ts']);
  });

  it('numbers them in order without reusing a number (0008 was never used)', () => {
    const numbers = MIGRATION_NAMES.map((n) => Number(n.slice(0, 4)));
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(numbers).not.toContain(8);
  });
});
