/** design.md section 1: who may import whom, and process.env read only by the configuration. */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT = /(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
}

function violations(dirs: string[], forbidden: RegExp): string[] {
  return dirs
    .flatMap((d) => sources(d))
    .flatMap((f) =>
      importsOf(f)
        .filter((i) => forbidden.test(i))
        .map((i) => `${f} imports ${i}`),
    );
}

describe('architecture (design.md section 1)', () => {
  it('finds the sources it checks', () => {
    expect(sources('src').length).toBeGreaterThan(10);
    expect(importsOf('src/app.ts')).toContain('@slack/bolt');
  });

  it('src/slack and src/blocks never import undici or bottleneck', () => {
    expect(violations(['src/slack', 'src/blocks'], /^(undici|bottleneck|ioredis)(\/|$)/)).toEqual([]);
  });

  it('src/domain and src/licensing never import Bolt or any Slack package', () => {
    expect(violations(['src/domain', 'src/licensing'], /^@slack\//)).toEqual([]);
  });

  it('src/services stays free of Slack and HTTP clients', () => {
    expect(violations(['src/services'], /^(@slack\/|undici|bottleneck)/)).toEqual([]);
  });

  it('src/blocks imports blocks, domain, the one list of Slack ids, zod, and only types from services', () => {
    // Builders stay pure (data in, blocks out). ids.ts is allowed so that every action_id and block_id
    // exists exactly once (design.md section 7); the data shapes some services define (audit entries,
    // bulk jobs, dashboard data) may be imported as types, which leaves no runtime dependency. zod is
    // for the codecs of button values and private_metadata (values.ts): builders encode, listeners decode.
    const allowed = (i: string) =>
      i.startsWith('./') || i.startsWith('../domain/') || i === '../blocks/ids.js' || i === 'zod';
    const bad = sources('src/blocks').flatMap((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      const typeOnly = new Set([...text.matchAll(/import type [^;]*?from '([^']+)'/g)].map((m) => m[1]));
      return importsOf(f)
        .filter((i) => !allowed(i) && !(i.startsWith('../services/') && typeOnly.has(i)))
        .map((i) => `${f} imports ${i}`);
    });
    expect(bad).toEqual([]);
  });

  it('src/domain imports only date-fns and other domain files', () => {
    const bad = sources('src/domain').flatMap((f) =>
      importsOf(f)
        .filter((i) => !(i.startsWith('./') || /^date-fns(\/|$)/.test(i)))
        .map((i) => `${f} imports ${i}`),
    );
    expect(bad).toEqual([]);
  });

  it('process.env is read only in src/config.ts, src/env-file.ts (.env) and src/sandbox/cli.ts', () => {
    // Comments may mention it; code may not.
    const code = (f: string) =>
      readFileSync(join(root, f), 'utf8')
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/(^|\s)\/\/.*$/gm, '$1');
    const readers = sources('src').filter((f) => /\bprocess\.env\b/.test(code(f)));
    const allowed = new Set(['src/config.ts', 'src/env-file.ts', 'src/sandbox/cli.ts']);
    expect(readers.filter((f) => !allowed.has(f))).toEqual([]);
  });

  it('src never imports from test/', () => {
    expect(violations(['src'], /(^|\/)test\//)).toEqual([]);
  });
});
