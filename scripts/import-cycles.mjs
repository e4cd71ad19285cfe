// Fails when the TypeScript front end (islands/) has an import cycle: run by
// `go tool task typecheck` after tsc. Every relative import counts, type-only and dynamic ones
// included, since a cycle through a type still ties two modules together.
// Usage: node scripts/import-cycles.mjs [dir…]   (default: islands)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['islands'];
const exts = ['.ts', '.tsx', '.js', '.mjs'];

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) return files(p);
    return exts.includes(path.extname(p)) ? [p] : [];
  });
}

// resolve finds the file a relative specifier names, as the bundler does (with or without extension, or an index file).
function resolve(from, spec) {
  const base = path.join(path.dirname(from), spec);
  for (const c of [base, ...exts.map((e) => base + e), ...exts.map((e) => path.join(base, 'index' + e))]) {
    if (existsSync(c) && statSync(c).isFile()) return c;
  }
  return null;
}

const specifier = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)['"](\.{1,2}\/[^'"]+)['"]/gm;
const graph = new Map();
for (const root of roots) {
  for (const f of files(root)) {
    const src = readFileSync(f, 'utf8');
    graph.set(f, [...src.matchAll(specifier)].map((m) => resolve(f, m[1])).filter(Boolean));
  }
}

// Depth-first walk: an edge back to a module still on the path closes a cycle.
const state = new Map(); // file -> 'open' | 'done'
const cycles = [];
function visit(f, stack) {
  state.set(f, 'open');
  stack.push(f);
  for (const dep of graph.get(f) || []) {
    if (state.get(dep) === 'open') cycles.push([...stack.slice(stack.indexOf(dep)), dep]);
    else if (!state.has(dep)) visit(dep, stack);
  }
  stack.pop();
  state.set(f, 'done');
}
for (const f of [...graph.keys()].sort()) if (!state.has(f)) visit(f, []);

if (cycles.length) {
  for (const c of cycles) console.error('import cycle: ' + c.join(' -> '));
  process.exit(1);
}
console.log(`no import cycle among ${graph.size} modules`);
