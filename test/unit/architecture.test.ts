/**
 * The house rules of docs/architecture.md, checked on the import graph of src/: who may import whom,
 * no cycle between files, no cycle between folders, process.env read only by the configuration, and
 * the line between the product (src/) and its local tools (local/).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const IMPORT = /(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

/** Comments may name modules; only code counts. */
function code(file: string): string {
  return readFileSync(join(root, file), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|\s)\/\/.*$/gm, '$1');
}

function importsOf(file: string): string[] {
  return [...code(file).matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
}

/** Each import with whether it is a dynamic `import()` (loaded when that line runs) or a static one. */
function importsWithKind(file: string): { spec: string; dynamic: boolean }[] {
  return [...code(file).matchAll(IMPORT)].map((m) => ({ spec: m[1] ?? m[2] ?? '', dynamic: m[2] !== undefined }));
}

/** The src file a relative import names (`./x.js` is `./x.ts` on disk), or undefined for a package. */
function target(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const abs = resolve(root, dirname(from), spec.replace(/\.js$/, '.ts'));
  const file = relative(root, abs);
  return existsSync(abs) ? file : `${file} (missing)`;
}

/** The features: every folder of src/ but the kernel (what all of them share) and app (the composition root). */
const FEATURES = readdirSync(join(root, 'src'), { withFileTypes: true })
  .filter((e) => e.isDirectory() && !['kernel', 'app'].includes(e.name))
  .map((e) => e.name);
/** The layers inside the kernel and inside each feature: `src/<unit>/<layer>/…`. */
const LAYERS = ['config', 'domain', 'db', 'licensing', 'services', 'blocks', 'slack'] as const;
const unitOf = (file: string) => file.split('/')[1] ?? '';
const layerOf = (file: string) => (file.split('/').length > 3 ? (file.split('/')[2] ?? '') : '');
const inLayer = (layer: (typeof LAYERS)[number]) => sources('src').filter((f) => layerOf(f) === layer);

/** Whether every import of `spec` in `file` is `import type` (erased: it loads nothing). */
function isTypeImport(file: string, spec: string): boolean {
  const lines = [...code(file).matchAll(/(import|export)\s+(type\s+)?[^'";]*?from\s*['"]([^'"]+)['"]/g)];
  const of = lines.filter((m) => m[3] === spec);
  return of.length > 0 && of.every((m) => m[2] !== undefined);
}

/**
 * The files an import reaches: the file it names, or, for a feature's face (index.ts), the files that
 * hold the names it takes, so the layer rules judge what is really used.
 */
function reached(file: string, spec: string): (string | undefined)[] {
  const to = target(file, spec);
  if (!to || !/^src\/[^/]+\/index\.ts$/.test(to) || unitOf(to) === unitOf(file)) return [to];
  const names = [...code(file).matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)]
    .filter((m) => m[2] === spec)
    .flatMap((m) => (m[1] ?? '').split(','))
    .map(
      (n) =>
        n
          .replace(/^\s*type\s+/, '')
          .split(' as ')[0]
          ?.trim() ?? '',
    )
    .filter(Boolean);
  const exports = [...code(to).matchAll(/export\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"]([^'"]+)['"]/g)];
  return names.map((name) => {
    const from = exports.find((m) => (m[1] ?? '').split(',').some((n) => n.trim() === name));
    return from ? target(to, from[2] ?? '') : `${to} (no export ${name})`;
  });
}

function violations(files: string[], allowed: (file: string, spec: string, to: string | undefined) => boolean) {
  return files.flatMap((f) =>
    importsOf(f)
      .filter((spec) => reached(f, spec).some((to) => !allowed(f, spec, to)))
      .map((spec) => `${f} imports ${spec}`),
  );
}

/** Strongly connected components of more than one node (Tarjan), each sorted: the cycles of a graph. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (on.has(w)) {
        low.set(v, Math.min(low.get(v) ?? 0, idx.get(w) ?? 0));
      }
    }
    if (low.get(v) === idx.get(v)) {
      const component: string[] = [];
      let w: string | undefined;
      do {
        w = stack.pop();
        if (w === undefined) break;
        on.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return found;
}

function fileGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const f of sources('src')) {
    const edges = new Set<string>();
    for (const spec of importsOf(f)) {
      for (const to of reached(f, spec)) if (to && to !== f) edges.add(to);
    }
    graph.set(f, edges);
  }
  return graph;
}

/**
 * Place to place, where a place is one layer of one unit (src/changes/slack with its subfolders,
 * src/kernel/licensing with the limiter), a feature's face, or the top of src/.
 */
function placeOf(file: string): string {
  const parts = file.split('/');
  return parts.length > 3 ? parts.slice(0, 3).join('/') : dirname(file);
}

function folderGraph(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const [file, edges] of fileGraph()) {
    const from = placeOf(file);
    const set = graph.get(from) ?? new Set<string>();
    for (const to of edges) if (placeOf(to) !== from) set.add(placeOf(to));
    graph.set(from, set);
  }
  return graph;
}

describe('architecture (docs/architecture.md)', () => {
  it('finds the sources and imports it checks', () => {
    expect(sources('src').length).toBeGreaterThan(10);
    expect(sources('local').length).toBeGreaterThan(10);
    expect(importsOf('src/app/app.ts')).toContain('@slack/bolt');
    // It tells a dynamic import from a static one (the rule between src/ and local/ rests on it).
    expect(importsWithKind('src/main.ts')).toContainEqual({ spec: '../local/sandbox/index.js', dynamic: true });
    expect(importsWithKind('src/main.ts')).toContainEqual({ spec: './kernel/config/config.js', dynamic: false });
    // The checker itself finds a cycle where there is one.
    const planted = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a'])],
      ['d', new Set(['a'])],
    ]);
    expect(cycles(planted)).toEqual([['a', 'b', 'c']]);
  });

  it('every relative import names a file that exists', () => {
    const missing = [...fileGraph()].flatMap(([f, edges]) =>
      [...edges].filter((to) => to.endsWith('(missing)')).map((to) => `${f} -> ${to}`),
    );
    expect(missing).toEqual([]);
  });

  it('has no cycle between files', () => {
    expect(cycles(fileGraph())).toEqual([]);
  });

  it('has no cycle between folders', () => {
    expect(cycles(folderGraph())).toEqual([]);
  });

  it('every feature is a folder of layers with one public face, and the kernel holds no feature', () => {
    expect(FEATURES.length).toBeGreaterThanOrEqual(10);
    const strays = sources('src').filter((f) => {
      const parts = f.split('/');
      if (parts.length === 2) return !['src/main.ts', 'src/backup.ts', 'src/import-old-records.ts'].includes(f);
      if (unitOf(f) === 'app') return false;
      if (parts.length === 3) return !(FEATURES.includes(unitOf(f)) && parts[2] === 'index.ts');
      return !(LAYERS as readonly string[]).includes(layerOf(f));
    });
    expect(strays).toEqual([]);
  });

  it('domain files import only date-fns, zod and other domain files', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to ? layerOf(to) === 'domain' : /^(date-fns|zod)(\/|$)/.test(spec);
    expect(violations(inLayer('domain'), allowed)).toEqual([]);
  });

  it('the licensing client imports only domain and itself, and no Slack package', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to ? ['domain', 'licensing'].includes(layerOf(to)) : !/^@slack\//.test(spec);
    expect(violations(inLayer('licensing'), allowed)).toEqual([]);
  });

  it('db files import domain and db, with no Slack, HTTP or Redis package', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to ? ['domain', 'db'].includes(layerOf(to)) : /^(node:[a-z/]+|(kysely|better-sqlite3|pg)(\/.*)?)$/.test(spec);
    expect(violations(inLayer('db'), allowed)).toEqual([]);
  });

  it('use cases (services) import domain, db, licensing and services, with no Slack types and no HTTP client', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to
        ? ['domain', 'db', 'licensing', 'services'].includes(layerOf(to))
        : !/^(@slack\/|undici|bottleneck)/.test(spec);
    expect(violations(inLayer('services'), allowed)).toEqual([]);
  });

  it('use cases build no mrkdwn: no escaping helper, no code span, mention, date token or Block Kit text', () => {
    // Use cases return typed outcomes; words for Slack are built in the blocks layers. The audit trail's
    // own channel post and log line (kernel/services/audit.ts, audit-queue.ts) are the known exceptions.
    const exceptions = new Set(['src/kernel/services/audit.ts', 'src/kernel/services/audit-queue.ts']);
    const MRKDWN = [/\\`/, /<@/, /<!date/, /<!subteam/, /<#[CG]/, /'mrkdwn'/];
    const found = inLayer('services')
      .filter((f) => !exceptions.has(f))
      .flatMap((f) => {
        const text = code(f);
        const helpers = importsOf(f)
          .map((spec) => ({ spec, to: target(f, spec) }))
          .filter(({ spec, to }) => (to && layerOf(to) === 'blocks') || /(^|\/)mrkdwn\.js$/.test(spec));
        const literals = MRKDWN.filter((re) => re.test(text)).map((re) => `${f} holds ${re.source}`);
        return [...helpers.map(({ spec }) => `${f} imports ${spec}`), ...literals];
      });
    expect(found).toEqual([]);
  });

  it('Block Kit builders import only blocks, domain and zod: they stay pure', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to ? ['blocks', 'domain'].includes(layerOf(to)) : /^zod(\/|$)/.test(spec);
    expect(violations(inLayer('blocks'), allowed)).toEqual([]);
  });

  it('Slack listeners import the layers below them, never the composition root, undici, bottleneck or ioredis', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to
        ? ['domain', 'db', 'licensing', 'services', 'blocks', 'slack', 'config'].includes(layerOf(to))
        : !/^(undici|bottleneck|ioredis)(\/|$)/.test(spec);
    expect(violations(inLayer('slack'), allowed)).toEqual([]);
  });

  it('a feature reaches another feature only through its public face (index.ts)', () => {
    const found = sources('src')
      .filter((f) => FEATURES.includes(unitOf(f)))
      .flatMap((f) =>
        importsOf(f)
          .map((spec) => ({ spec, to: target(f, spec) }))
          .filter(({ to }) => to && FEATURES.includes(unitOf(to)) && unitOf(to) !== unitOf(f))
          .filter(({ to }) => to !== `src/${unitOf(to ?? '')}/index.ts`)
          .map(({ spec }) => `${f} imports ${spec}`),
      );
    expect(found).toEqual([]);
  });

  it('the composition root and the entry points reach a feature only through its face', () => {
    const entries = [...sources('src/app'), 'src/main.ts', 'src/backup.ts', 'src/import-old-records.ts'];
    const found = entries.flatMap((f) =>
      importsOf(f)
        .map((spec) => ({ spec, to: target(f, spec) }))
        .filter(({ to }) => to && FEATURES.includes(unitOf(to)))
        .filter(({ to }) => to !== `src/${unitOf(to ?? '')}/index.ts`)
        .map(({ spec }) => `${f} imports ${spec}`),
    );
    expect(found).toEqual([]);
  });

  it('every feature offers the root one builder of the same shape (kernel/slack/feature.ts), and the root builds each', () => {
    const compose = code('src/app/compose.ts');
    const missing = FEATURES.flatMap((u) => {
      // A folder of two words (`two-person`) names its builder in camelCase (`twoPersonFeature`).
      const builder = `${u.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}Feature`;
      const face = existsSync(join(root, 'src', u, 'index.ts')) ? code(`src/${u}/index.ts`) : '';
      const problems: string[] = [];
      if (!new RegExp(`export\\s*\\{[^}]*\\b${builder}\\b`).test(face))
        problems.push(`src/${u}/index.ts offers no ${builder}`);
      if (!new RegExp(`\\b${builder}\\(`).test(compose)) problems.push(`src/app/compose.ts never calls ${builder}`);
      return problems;
    });
    expect(missing).toEqual([]);
    const untyped = FEATURES.filter(
      (u) =>
        !existsSync(join(root, 'src', u, 'slack', 'feature.ts')) ||
        !/\): (Feature|\w+Feature) \{/.test(code(`src/${u}/slack/feature.ts`)),
    );
    expect(untyped).toEqual([]);
  });

  it('reading the configuration loads no feature face at run time (a face loads its whole feature; config is loaded first, by every entry point)', () => {
    const seen = new Set<string>();
    const faces: string[] = [];
    const visit = (file: string, via: string[]) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const { spec } of importsWithKind(file)) {
        if (isTypeImport(file, spec)) continue;
        const to = target(file, spec);
        if (!to || to.endsWith('(missing)')) continue;
        if (/^src\/[^/]+\/index\.ts$/.test(to) && unitOf(to) !== 'kernel') faces.push([...via, file, to].join(' -> '));
        else visit(to, [...via, file]);
      }
    };
    visit('src/kernel/config/config.ts', []);
    expect(faces).toEqual([]);
  });

  it("a feature's face re-exports only its own files", () => {
    const found = FEATURES.filter((u) => existsSync(join(root, 'src', u, 'index.ts'))).flatMap((u) =>
      importsOf(`src/${u}/index.ts`)
        .filter((spec) => unitOf(target(`src/${u}/index.ts`, spec) ?? '') !== u)
        .map((spec) => `src/${u}/index.ts re-exports ${spec}`),
    );
    expect(found).toEqual([]);
  });

  it('the kernel imports no feature and not the composition root', () => {
    // Two known reaches, both without running a feature's code: the configuration parses every
    // feature's settings (their domain rules), and the listeners' dependency bag (kernel/slack/deps.ts,
    // state.ts) names the feature services it carries, by type only.
    const typeOnly = new Set(['src/kernel/slack/deps.ts', 'src/kernel/slack/state.ts']);
    const found = sources('src/kernel').flatMap((f) =>
      importsWithKind(f)
        .map(({ spec }) => ({ spec, to: target(f, spec), type: isTypeImport(f, spec) }))
        .filter(({ to }) => to && unitOf(to) !== 'kernel')
        .filter(({ to }) => !(f === 'src/kernel/config/config.ts' && to && layerOf(to) === 'domain'))
        .filter(({ type }) => !(typeOnly.has(f) && type))
        .map(({ spec }) => `${f} imports ${spec}`),
    );
    expect(found).toEqual([]);
  });

  it('process.env is read only in src/kernel/config/config.ts, src/kernel/config/env-file.ts (.env) and the sandbox cli of local/', () => {
    const readers = [...sources('src'), ...sources('local')].filter((f) => /\bprocess\.env\b/.test(code(f)));
    const allowed = new Set([
      'src/kernel/config/config.ts',
      'src/kernel/config/env-file.ts',
      'local/sandbox/cli.ts',
      'local/sandbox/cli-env.ts',
    ]);
    expect(readers.filter((f) => !allowed.has(f))).toEqual([]);
  });

  it('src/ reaches local/ only by the dynamic imports of src/main.ts that start the local mode', () => {
    // The product never needs its local tools: a type, a constant or a helper it uses lives in src/.
    const intoLocal = sources('src').flatMap((f) =>
      importsWithKind(f)
        .filter(({ spec }) => target(f, spec)?.startsWith('local/'))
        .filter(({ dynamic }) => !(f === 'src/main.ts' && dynamic))
        .map(({ spec, dynamic }) => `${f} imports ${spec}${dynamic ? ' (dynamic)' : ''}`),
    );
    expect(intoLocal).toEqual([]);
    // And main.ts does reach it: the local mode (sandbox, console, local Slack double) starts from there.
    const fromMain = importsWithKind('src/main.ts').filter(({ spec }) => spec.startsWith('../local/'));
    expect(fromMain.length).toBeGreaterThan(0);
  });

  it("src/ imports no development dependency (the console page's gemoji and slack-message-parser are local/'s)", () => {
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>;
    };
    const dev = Object.keys(pkg.devDependencies);
    expect(dev).toEqual(expect.arrayContaining(['gemoji', 'slack-message-parser']));
    const isDev = (spec: string) => dev.some((name) => spec === name || spec.startsWith(`${name}/`));
    expect(violations(sources('src'), (_f, spec, to) => to !== undefined || !isDev(spec))).toEqual([]);
  });

  it('local/ imports src/ (it drives the product) and itself, never test/', () => {
    const allowed = (_f: string, spec: string, to: string | undefined) =>
      to ? /^(src|local)\//.test(to) : !/(^|\/)test\//.test(spec);
    expect(violations(sources('local'), allowed)).toEqual([]);
  });

  it('a start of src/main.ts loads nothing of local/, no Redis store and no date-fns barrel', () => {
    // What `import x from` and `export … from` load when the module loads; `import type` and `import()` load nothing.
    const STATIC = /(?:^|;|\n)\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/g;
    const seen = new Set<string>();
    const packages = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      for (const [, spec = ''] of code(file).matchAll(STATIC)) {
        const to = target(file, spec);
        if (to) visit(to);
        else packages.add(`${file} imports ${spec}`);
      }
    };
    visit('src/main.ts');
    expect(seen.size).toBeGreaterThan(50);
    const modeOnly = [...seen].filter((f) => /^local\/|redis-store\.ts$|shared-store-redis\.ts$/.test(f));
    expect(modeOnly).toEqual([]);
    expect([...packages].filter((p) => / imports (ioredis|date-fns)$/.test(p))).toEqual([]);
  });

  it('src never imports from test/', () => {
    expect(violations(sources('src'), (_f, spec) => !/(^|\/)test\//.test(spec))).toEqual([]);
  });
});
