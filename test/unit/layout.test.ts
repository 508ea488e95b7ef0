import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import config from '../../vitest.config.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const tsFiles = readdirSync(`${root}test`, { recursive: true, encoding: 'utf8' })
  .map((f) => `test/${f}`)
  .filter((f) => f.endsWith('.ts'));
const testFiles = tsFiles.filter((f) => f.endsWith('.test.ts'));

/** The folders the vitest projects run, from their `include` globs (`test/<folder>/**\/*.test.ts`). */
const projects = (config.test?.projects ?? []).flatMap((p) =>
  typeof p === 'object' && 'test' in p && p.test ? [{ name: p.test.name, include: p.test.include ?? [] }] : [],
);
const folderOf = (glob: string) => glob.replace(/\*\*\/\*\.test\.ts$/, '');

describe('the test folders are the vitest projects', () => {
  it('every project selects its files by folder', () => {
    expect(projects.map((p) => p.name)).toEqual(['unit', 'in-process', 'postgres', 'slow', 'app', 'processes']);
    for (const { include } of projects)
      for (const glob of include) expect(glob).toMatch(/^test\/[a-z-]+\/\*\*\/\*\.test\.ts$/);
  });

  it('every test file sits in a folder some project runs', () => {
    const folders = projects.flatMap((p) => p.include.map(folderOf));
    expect(testFiles.length).toBeGreaterThan(200);
    expect(testFiles.filter((f) => !folders.some((folder) => f.startsWith(folder)))).toEqual([]);
  });

  it('fixtures and helpers live in test/support, not beside the tests that use them', () => {
    expect(tsFiles.filter((f) => !f.endsWith('.test.ts') && !f.startsWith('test/support/'))).toEqual([]);
  });
});
