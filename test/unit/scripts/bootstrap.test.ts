/**
 * scripts/bootstrap.mjs decides when `npm start` / `npm test` must install or build: in a checkout of
 * its own making (temp dirs), nothing is installed or built here, only the decisions are checked.
 */
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildState, installState } from '../../../scripts/bootstrap.mjs';

const dirs: string[] = [];
function checkout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'license-desk-boot-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3}\n');
  mkdirSync(join(dir, 'src'));
  writeFileSync(join(dir, 'src/main.ts'), 'export {};\n');
  writeFileSync(join(dir, 'tsconfig.json'), '{}\n');
  return dir;
}
const at = (path: string, secondsAgo: number) => {
  const t = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(path, t, t);
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('installState', () => {
  it('is missing without node_modules (a fresh clone)', () => {
    expect(installState(checkout())).toBe('missing');
  });

  it('is current after an install newer than the lock file (a manual npm ci), then stays so by hash', () => {
    const dir = checkout();
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules/.package-lock.json'), '{}');
    at(join(dir, 'package-lock.json'), 60);
    expect(installState(dir)).toBe('current');
    // Touching the lock file without changing it (a checkout) needs no reinstall.
    at(join(dir, 'node_modules/.package-lock.json'), 600);
    at(join(dir, 'package-lock.json'), 0);
    expect(installState(dir)).toBe('current');
  });

  it('is stale when the lock file changed after the install', () => {
    const dir = checkout();
    mkdirSync(join(dir, 'node_modules'));
    writeFileSync(join(dir, 'node_modules/.package-lock.json'), '{}');
    at(join(dir, 'package-lock.json'), 60);
    expect(installState(dir)).toBe('current');
    writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion":3,"changed":true}\n');
    at(join(dir, 'node_modules/.package-lock.json'), 600);
    expect(installState(dir)).toBe('stale');
  });
});

describe('buildState', () => {
  it('wants a build without dist/, is current once stamped, and wants one again when a source changes', () => {
    const dir = checkout();
    const first = buildState(dir);
    expect(first.current).toBe(false);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/main.js'), '');
    writeFileSync(join(dir, 'dist/.license-desk-build-hash'), `${first.hash}\n`);
    expect(buildState(dir)).toEqual({ hash: first.hash, current: true });
    writeFileSync(join(dir, 'src/main.ts'), 'export const changed = 1;\n');
    expect(buildState(dir).current).toBe(false);
  });

  it('once a start found the build current, still sees a change of the same size, and a touch is no change', () => {
    const dir = checkout();
    const source = join(dir, 'src/main.ts');
    for (const file of ['package-lock.json', 'src/main.ts', 'tsconfig.json']) at(join(dir, file), 60);
    const first = buildState(dir);
    mkdirSync(join(dir, 'dist'));
    writeFileSync(join(dir, 'dist/main.js'), '');
    writeFileSync(join(dir, 'dist/.license-desk-build-hash'), `${first.hash}\n`);
    // Found current (sources settled long ago): the next starts skip hashing while nothing changes.
    expect(buildState(dir)).toEqual({ hash: first.hash, current: true });
    expect(buildState(dir)).toEqual({ hash: first.hash, current: true });
    // Touched, not changed (a checkout): still current, by its hash.
    at(source, 30);
    expect(buildState(dir)).toEqual({ hash: first.hash, current: true });
    // Changed, same size, dated in the past: a rebuild.
    writeFileSync(source, 'export {}\n\n'); // 11 bytes, as 'export {};\n' was
    at(source, 20);
    expect(buildState(dir).current).toBe(false);
  });
});
