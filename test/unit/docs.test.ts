import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SUBCOMMANDS } from '../../src/app/commands/index.js';
import { SETTING_NAMES } from '../../src/kernel/config/config.js';

/** The settings src/kernel/config/config.ts reads: the keys of its schema over the environment. */
function configVariables(): string[] {
  return [...SETTING_NAMES];
}

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const envExample = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
/** Every setting, one row each: README names the common ones and points here. */
const configuration = readFileSync(new URL('../../docs/configuration.md', import.meta.url), 'utf8');
/** Each command and surface as people meet them: README summarises and points here. */
const guide = readFileSync(new URL('../../docs/guide.md', import.meta.url), 'utf8');

describe('the docs stay true to the configuration', () => {
  const variables = configVariables();

  it('finds the settings in config.ts (guards the parsing above)', () => {
    expect(variables).toEqual(expect.arrayContaining(['SLACK_BOT_TOKEN', 'LICENSING_API_TOKEN', 'LOG_LEVEL']));
    expect(variables.length).toBeGreaterThan(10);
  });

  it.each(variables)('.env.example lists %s', (name) => {
    expect(envExample).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it.each(variables)("docs/configuration.md's table documents %s", (name) => {
    expect(configuration).toMatch(new RegExp(`^\\| \`${name}\` \\|`, 'm'));
  });

  it('README points at docs/configuration.md and names only real settings in its short table', () => {
    expect(readme).toContain('](docs/configuration.md)');
    const named = [...readme.matchAll(/^\| ([^|]+) \|/gm)].flatMap((m) =>
      [...(m[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((n) => n[1]),
    );
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((name) => !variables.includes(name ?? ''))).toEqual([]);
  });

  it('.env.example holds no values that look like real secrets', () => {
    expect(envExample).not.toMatch(/xox[abprs]-[0-9A-Za-z-]{10,}|xapp-\d-[0-9A-Za-z-]{10,}/);
    expect(envExample).toMatch(/^SLACK_BOT_TOKEN=$/m);
    expect(envExample).toMatch(/^LICENSING_API_TOKEN=$/m);
  });

  it("README's quick start is two commands, npm start and npm test, and .ci/run runs that test command", () => {
    const quickStart = readme.slice(
      readme.indexOf('## Quick start'),
      readme.indexOf('\n## ', readme.indexOf('## Quick start') + 1),
    );
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(quickStart)?.[1] ?? '';
    const commands = firstBlock
      .split('\n')
      .map((line) => line.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm start', 'npm test']);
    const ci = readFileSync(new URL('../../.ci/run', import.meta.url), 'utf8');
    const lastCommand = ci.trim().split('\n').at(-1) ?? '';
    expect(lastCommand).toBe('npm test');
  });

  it('npm test is the whole check: install when needed, typecheck, lint, every test', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.test).toBe(
      'node scripts/bootstrap.mjs install && npm run typecheck && npm run lint && npm run test:vitest',
    );
    // exec: the shell npm starts gives way to node, so npm's SIGTERM reaches the app.
    expect(pkg.scripts.start).toBe('exec node scripts/bootstrap.mjs start');
  });

  it('nothing in the repository points a reader at files outside it', () => {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    const files = [
      'README.md',
      '.env.example',
      'manifest.yml',
      ...['src', 'test', 'bench', 'docs', 'scripts', '.ci'].flatMap((dir) =>
        readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
          .filter((e) => e.isFile() && /\.(ts|mjs|md|json|yml|txt)$|^run$/.test(e.name))
          .map((e) => relative(root, join(e.parentPath, e.name))),
      ),
    ];
    expect(files.length).toBeGreaterThan(100);
    const outside = files.filter(
      (f) => f !== 'test/unit/docs.test.ts' && /\.\.\/shared|\/work\/shared/.test(readFileSync(join(root, f), 'utf8')),
    );
    expect(outside).toEqual([]);
  });
});

/** The first cell of every table row under docs/guide.md's "The `/licenses` command", unescaped (`\|` -> `|`). */
function guideCommandCells(): string[] {
  const start = guide.indexOf('## The `/licenses` command');
  const section = guide.slice(start, guide.indexOf('\n## ', start + 1));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !/^\|[-| ]+\|$/.test(line))
    .map((line) => (line.split(/(?<!\\)\|/)[1] ?? '').replace(/\\\|/g, '|').trim());
}

describe("docs/guide.md's command table stays true to the table of subcommands", () => {
  const cells = guideCommandCells();
  const documented = cells.flatMap((cell) => [...cell.matchAll(/`\/licenses ([^`]+)`/g)].map((m) => m[1] ?? ''));

  it('finds the command rows (guards the parsing above)', () => {
    expect(cells.length).toBeGreaterThan(10);
    expect(documented).toContain('pool <poolId> [all]');
    expect(documented).toContain('find <email | @user>');
  });

  it.each(SUBCOMMANDS.map((s) => [s.name, s.usage]))(
    '%s: docs/guide.md has a row for `/licenses %s`',
    (_name, usage) => {
      expect(documented).toContain(usage);
    },
  );

  it('every /licenses command docs/guide.md documents is one of the table', () => {
    expect(documented.filter((usage) => !SUBCOMMANDS.some((s) => s.usage === usage))).toEqual([]);
  });
});
