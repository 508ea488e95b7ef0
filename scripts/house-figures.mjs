#!/usr/bin/env node
/**
 * The shape of src/, as a reader meets it: files per folder, the longest functions, and where
 * `setInterval` is written. `node scripts/house-figures.mjs` prints them; docs/architecture.md
 * names the goals (about 20 files a folder at most, no function over 150 lines, ten at most over 100,
 * `setInterval` only in the job runner).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

const root = process.argv[2] ?? 'src';
const files = readdirSync(root, { recursive: true, withFileTypes: true })
  .filter((e) => e.isFile() && e.name.endsWith('.ts'))
  .map((e) => join(e.parentPath, e.name));

const perFolder = new Map();
for (const f of files) perFolder.set(dirname(f), (perFolder.get(dirname(f)) ?? 0) + 1);

const functions = [];
const intervals = [];
for (const file of files) {
  const text = readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node, name) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const lines = lineOf(node.end) - lineOf(node.getStart(source)) + 1;
      let label = name;
      if (node.name && ts.isIdentifier(node.name)) label = node.name.text;
      functions.push({
        file: relative('.', file),
        name: label ?? '(anonymous)',
        lines,
        line: lineOf(node.getStart(source)),
      });
    }
    const nextName =
      ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)
        ? node.name.text
        : ts.isPropertyAssignment(node) && ts.isIdentifier(node.name)
          ? node.name.text
          : name;
    if (ts.isIdentifier(node) && node.text === 'setInterval' && !ts.isPropertyAccessExpression(node.parent)) {
      intervals.push(`${relative('.', file)}:${lineOf(node.getStart(source))}`);
    }
    ts.forEachChild(node, (child) => visit(child, ts.isFunctionLike(node) ? undefined : nextName));
  };
  visit(source, undefined);
}

const folders = [...perFolder].sort((a, b) => b[1] - a[1]);
console.log(`files: ${files.length} in ${folders.length} folders; largest folders:`);
for (const [folder, n] of folders.slice(0, 12)) console.log(`  ${String(n).padStart(3)}  ${folder}`);
const long = functions.filter((f) => f.lines >= 100).sort((a, b) => b.lines - a.lines);
console.log(
  `functions: ${functions.filter((f) => f.lines >= 50).length} of 50+ lines, ${long.length} of 100+, ${functions.filter((f) => f.lines > 150).length} over 150`,
);
for (const f of long) console.log(`  ${String(f.lines).padStart(4)}  ${f.name}  ${f.file}:${f.line}`);
console.log(`setInterval: ${intervals.length}${intervals.length ? `  (${intervals.join(', ')})` : ''}`);
